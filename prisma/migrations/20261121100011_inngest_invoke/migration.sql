-- AlterEnum
ALTER TYPE "InngestJobKind" ADD VALUE 'invoke';

-- AlterTable
ALTER TABLE "InngestJob" ADD COLUMN     "invokedRunId" TEXT;

-- CreateIndex
CREATE INDEX "InngestJob_invokedRunId_idx" ON "InngestJob"("invokedRunId");
