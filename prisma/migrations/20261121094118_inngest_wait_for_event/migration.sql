-- AlterEnum
ALTER TYPE "InngestJobKind" ADD VALUE 'wait';

-- AlterTable
ALTER TABLE "InngestJob" ADD COLUMN     "waitEvent" TEXT,
ADD COLUMN     "waitIf" TEXT;

-- CreateIndex
CREATE INDEX "InngestJob_waitEvent_idx" ON "InngestJob"("waitEvent");
