-- AlterTable
ALTER TABLE "PaymentSession" ADD COLUMN     "leaseUntil" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "PaymentSession_status_leaseUntil_idx" ON "PaymentSession"("status", "leaseUntil");
