-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "callEndedAt" TIMESTAMP(3),
ADD COLUMN     "lateAnswer" TEXT,
ADD COLUMN     "lateAnswerAt" TIMESTAMP(3),
ADD COLUMN     "nextLookupAt" TIMESTAMP(3),
ADD COLUMN     "verifyLookupAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Operation_verifyLookupAt_idx" ON "Operation"("verifyLookupAt");
