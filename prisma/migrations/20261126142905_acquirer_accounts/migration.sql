-- Acquirer accounts per merchant (issue 22). Existing deployments: the credentials that lived in
-- FINARO_*, CLEARHAUS_* and BAMBORA_* become accounts of every merchant with one command, run once
-- after this migration with those variables set (SQL cannot read them):
--   node dist/cli.js accounts import-env      (docs/operations.md, "Upgrading to per-merchant acquirer accounts")
-- It also records the imported account on the payments and operations each merchant already has.

-- CreateEnum
CREATE TYPE "AcquirerAccountMode" AS ENUM ('test', 'live');

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "acquirerAccountId" TEXT;

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "acquirerAccountId" TEXT;

-- CreateTable
CREATE TABLE "AcquirerAccount" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "processor" "Processor" NOT NULL,
    "name" TEXT NOT NULL,
    "credentialsSealed" TEXT NOT NULL,
    "credentialsKeyId" TEXT NOT NULL,
    "credentialsFingerprint" TEXT NOT NULL,
    "credentialsSetAt" TIMESTAMP(3) NOT NULL,
    "acquirerMerchantId" TEXT NOT NULL,
    "acquirerBins" JSONB NOT NULL DEFAULT '{}',
    "mcc" CHAR(4) NOT NULL,
    "merchantName" TEXT NOT NULL,
    "country" CHAR(2) NOT NULL,
    "descriptor" TEXT NOT NULL,
    "currencies" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "anyCurrency" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "mode" "AcquirerAccountMode" NOT NULL DEFAULT 'test',
    "cardUpdatesSince" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AcquirerAccount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AcquirerAccount_merchantId_processor_idx" ON "AcquirerAccount"("merchantId", "processor");

-- CreateIndex
CREATE UNIQUE INDEX "AcquirerAccount_merchantId_name_key" ON "AcquirerAccount"("merchantId", "name");

-- AddForeignKey
ALTER TABLE "AcquirerAccount" ADD CONSTRAINT "AcquirerAccount_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_acquirerAccountId_fkey" FOREIGN KEY ("acquirerAccountId") REFERENCES "AcquirerAccount"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Operation" ADD CONSTRAINT "Operation_acquirerAccountId_fkey" FOREIGN KEY ("acquirerAccountId") REFERENCES "AcquirerAccount"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
