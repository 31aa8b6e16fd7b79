-- AlterTable
ALTER TABLE "InngestRun" ADD COLUMN     "idempotencyKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "InngestRun_functionId_idempotencyKey_key" ON "InngestRun"("functionId", "idempotencyKey");
