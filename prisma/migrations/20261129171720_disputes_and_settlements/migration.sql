-- CreateEnum
CREATE TYPE "DisputeKind" AS ENUM ('retrieval_request', 'chargeback', 'second_chargeback');

-- CreateEnum
CREATE TYPE "DisputeStatus" AS ENUM ('open', 'under_review', 'refuted', 'accepted', 'won', 'lost');

-- CreateEnum
CREATE TYPE "SettlementLineResult" AS ENUM ('matched', 'amount_mismatch', 'unknown');

-- CreateEnum
CREATE TYPE "ReportingFeed" AS ENUM ('disputes', 'settlements');

-- AlterEnum
ALTER TYPE "NotificationKind" ADD VALUE 'dispute';

-- AlterTable
ALTER TABLE "AcquirerAccount" ADD COLUMN     "reportingCheckedAt" TIMESTAMP(3),
ADD COLUMN     "reportingCredentialsFingerprint" TEXT,
ADD COLUMN     "reportingCredentialsKeyId" TEXT,
ADD COLUMN     "reportingCredentialsSealed" TEXT,
ADD COLUMN     "reportingCredentialsSetAt" TIMESTAMP(3),
ADD COLUMN     "reportingFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reportingProblem" TEXT;

-- CreateTable
CREATE TABLE "Dispute" (
    "id" VARCHAR(32) NOT NULL,
    "merchantId" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "acquirerAccountId" TEXT NOT NULL,
    "processor" "Processor" NOT NULL,
    "acquirerDisputeId" TEXT NOT NULL,
    "transactionId" TEXT,
    "reference" TEXT,
    "paymentId" VARCHAR(32),
    "operationId" VARCHAR(32),
    "kind" "DisputeKind" NOT NULL,
    "status" "DisputeStatus" NOT NULL,
    "reasonCode" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "partial" BOOLEAN NOT NULL DEFAULT false,
    "openedOn" DATE NOT NULL,
    "dueOn" DATE,
    "expiresOn" DATE,
    "answers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "decision" TEXT,
    "decidedAt" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Dispute_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DisputeEvidence" (
    "id" VARCHAR(32) NOT NULL,
    "disputeId" VARCHAR(32) NOT NULL,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "bytes" BYTEA NOT NULL,
    "userId" TEXT,
    "sentAt" TIMESTAMP(3),
    "sendError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DisputeEvidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Settlement" (
    "id" VARCHAR(32) NOT NULL,
    "merchantId" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "acquirerAccountId" TEXT NOT NULL,
    "processor" "Processor" NOT NULL,
    "acquirerSettlementId" TEXT NOT NULL,
    "settled" BOOLEAN NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "periodStart" DATE NOT NULL,
    "periodEnd" DATE NOT NULL,
    "payoutAmount" BIGINT,
    "payoutDate" DATE,
    "payoutReference" TEXT,
    "payoutCancelledOn" DATE,
    "reserveAmount" BIGINT,
    "reserveDate" DATE,
    "reserveReference" TEXT,
    "sales" BIGINT NOT NULL,
    "credits" BIGINT NOT NULL,
    "refunds" BIGINT NOT NULL,
    "chargebacks" BIGINT NOT NULL,
    "fees" BIGINT NOT NULL,
    "otherPostings" BIGINT NOT NULL,
    "net" BIGINT NOT NULL,
    "feesByKind" JSONB NOT NULL DEFAULT '{}',
    "otherPostingList" JSONB NOT NULL DEFAULT '[]',
    "matchedLines" INTEGER NOT NULL DEFAULT 0,
    "mismatchedLines" INTEGER NOT NULL DEFAULT 0,
    "unknownLines" INTEGER NOT NULL DEFAULT 0,
    "payoutDifference" BIGINT,
    "overdueOperationIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "reconciledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Settlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettlementLine" (
    "id" VARCHAR(32) NOT NULL,
    "settlementId" VARCHAR(32) NOT NULL,
    "transactionId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reference" TEXT,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "processedAt" TIMESTAMP(3) NOT NULL,
    "settledGross" BIGINT,
    "settledFees" BIGINT,
    "settledNet" BIGINT,
    "settledCurrency" CHAR(3),
    "operationId" VARCHAR(32),
    "matchedBy" TEXT,
    "result" "SettlementLineResult" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SettlementLine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReportingCursor" (
    "acquirerAccountId" TEXT NOT NULL,
    "feed" "ReportingFeed" NOT NULL,
    "fromDate" DATE NOT NULL,
    "nextAttemptAt" TIMESTAMP(3),
    "failures" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastSuccessAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReportingCursor_pkey" PRIMARY KEY ("acquirerAccountId","feed")
);

-- CreateIndex
CREATE INDEX "Dispute_merchantId_mode_dueOn_idx" ON "Dispute"("merchantId", "mode", "dueOn");

-- CreateIndex
CREATE INDEX "Dispute_paymentId_idx" ON "Dispute"("paymentId");

-- CreateIndex
CREATE UNIQUE INDEX "Dispute_acquirerAccountId_acquirerDisputeId_key" ON "Dispute"("acquirerAccountId", "acquirerDisputeId");

-- CreateIndex
CREATE INDEX "DisputeEvidence_disputeId_createdAt_idx" ON "DisputeEvidence"("disputeId", "createdAt");

-- CreateIndex
CREATE INDEX "Settlement_merchantId_mode_periodEnd_idx" ON "Settlement"("merchantId", "mode", "periodEnd");

-- CreateIndex
CREATE UNIQUE INDEX "Settlement_acquirerAccountId_acquirerSettlementId_key" ON "Settlement"("acquirerAccountId", "acquirerSettlementId");

-- CreateIndex
CREATE INDEX "SettlementLine_operationId_idx" ON "SettlementLine"("operationId");

-- CreateIndex
CREATE UNIQUE INDEX "SettlementLine_settlementId_transactionId_key" ON "SettlementLine"("settlementId", "transactionId");

-- AddForeignKey
ALTER TABLE "Dispute" ADD CONSTRAINT "Dispute_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dispute" ADD CONSTRAINT "Dispute_acquirerAccountId_fkey" FOREIGN KEY ("acquirerAccountId") REFERENCES "AcquirerAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dispute" ADD CONSTRAINT "Dispute_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dispute" ADD CONSTRAINT "Dispute_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DisputeEvidence" ADD CONSTRAINT "DisputeEvidence_disputeId_fkey" FOREIGN KEY ("disputeId") REFERENCES "Dispute"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Settlement" ADD CONSTRAINT "Settlement_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Settlement" ADD CONSTRAINT "Settlement_acquirerAccountId_fkey" FOREIGN KEY ("acquirerAccountId") REFERENCES "AcquirerAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SettlementLine" ADD CONSTRAINT "SettlementLine_settlementId_fkey" FOREIGN KEY ("settlementId") REFERENCES "Settlement"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SettlementLine" ADD CONSTRAINT "SettlementLine_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReportingCursor" ADD CONSTRAINT "ReportingCursor_acquirerAccountId_fkey" FOREIGN KEY ("acquirerAccountId") REFERENCES "AcquirerAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;
