-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "lookupAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "operatorAlertedAt" TIMESTAMP(3),
ADD COLUMN     "outcomeUnknownSince" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Operation_status_outcomeUnknownSince_idx" ON "Operation"("status", "outcomeUnknownSince");
