-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('OWNER', 'DEVELOPER', 'VIEWER');

-- CreateEnum
CREATE TYPE "Processor" AS ENUM ('finaro', 'clearhaus', 'bambora');

-- CreateEnum
CREATE TYPE "NotificationKind" AS ENUM ('completion', 'mit', 'operation', 'payment_details', 'lifecycle', 'test');

-- CreateEnum
CREATE TYPE "NotificationStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "ThreeDsMode" AS ENUM ('SKIP_3DS', 'FORCE_3DS', 'FALLBACK_3DS');

-- CreateEnum
CREATE TYPE "SessionStatus" AS ENUM ('OPEN', 'PROCESSING', 'COMPLETED', 'FAILED', 'TIMED_OUT');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('PENDING', 'AUTHORIZED', 'CAPTURED', 'REFUNDED', 'VOIDED', 'DECLINED', 'FAILED', 'TIMED_OUT', 'TOKENIZED');

-- CreateEnum
CREATE TYPE "OperationType" AS ENUM ('authorize', 'capture', 'refund', 'void', 'payout');

-- CreateEnum
CREATE TYPE "OperationStatus" AS ENUM ('pending', 'approved', 'declined', 'failed');

-- CreateEnum
CREATE TYPE "PanType" AS ENUM ('fpan', 'dpan');

-- CreateTable
CREATE TABLE "Merchant" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "notificationSecret" TEXT NOT NULL,
    "defaultNotificationUrl" TEXT,
    "completionNotificationUrl" TEXT,
    "lifecycleNotificationUrl" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Merchant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" "UserRole" NOT NULL DEFAULT 'OWNER',
    "totpSecret" TEXT,
    "totpEnabledAt" TIMESTAMP(3),
    "lastSignInAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInAttempt" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "userId" TEXT,
    "ipAddress" TEXT,
    "succeeded" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SignInAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "rolledFromId" TEXT,

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HostedIntegration" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "hostedId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "defaultNotificationUrl" TEXT,
    "completionNotificationUrl" TEXT,
    "lifecycleNotificationUrl" TEXT,
    "styling" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HostedIntegration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProcessorRouting" (
    "merchantId" TEXT NOT NULL,
    "rule" INTEGER NOT NULL,
    "processors" "Processor"[],
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProcessorRouting_pkey" PRIMARY KEY ("merchantId","rule")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "userId" TEXT,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "paymentId" VARCHAR(32),
    "kind" "NotificationKind" NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" "NotificationStatus" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationAttempt" (
    "id" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "attemptNumber" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "responseBody" TEXT,

    CONSTRAINT "NotificationAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiRequest" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "traceApi" TEXT,
    "statusCode" INTEGER NOT NULL,
    "errorCode" TEXT,
    "durationMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "merchantId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "statusCode" INTEGER,
    "responseBody" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY ("merchantId","key")
);

-- CreateTable
CREATE TABLE "PaymentSession" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "hostedIntegrationId" TEXT,
    "merchantPaymentId" TEXT,
    "newMerchantPaymentId" TEXT,
    "onBehalfOfPaymentId" TEXT,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reference" TEXT,
    "idPan" TEXT,
    "idExpMonth" TEXT,
    "idExpYear" TEXT,
    "idSecurityCode" TEXT,
    "acceptUrl" TEXT,
    "cancelUrl" TEXT,
    "notificationUrl" TEXT,
    "set3ds" "ThreeDsMode" NOT NULL DEFAULT 'FORCE_3DS',
    "rule" INTEGER NOT NULL DEFAULT 1,
    "timeoutSeconds" INTEGER NOT NULL DEFAULT 900,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "instantCapture" INTEGER NOT NULL DEFAULT 0,
    "processors" "Processor"[],
    "merchantData" TEXT,
    "textOnStatement" TEXT,
    "status" "SessionStatus" NOT NULL DEFAULT 'OPEN',
    "paymentId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "PaymentSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" VARCHAR(32) NOT NULL,
    "merchantId" TEXT NOT NULL,
    "merchantPaymentId" VARCHAR(64),
    "parentPaymentId" VARCHAR(32),
    "storedCardId" TEXT,
    "status" "PaymentStatus" NOT NULL DEFAULT 'PENDING',
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "authorizedAmount" BIGINT NOT NULL DEFAULT 0,
    "capturedAmount" BIGINT NOT NULL DEFAULT 0,
    "refundedAmount" BIGINT NOT NULL DEFAULT 0,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "reference" TEXT,
    "paymentType" TEXT NOT NULL DEFAULT 'cit',
    "processor" "Processor",
    "textOnStatement" TEXT,
    "note" TEXT,
    "tags" TEXT,
    "sca" TEXT,
    "eci" TEXT,
    "merchantData" TEXT,
    "instantCapture" INTEGER NOT NULL DEFAULT 0,
    "customerEmail" TEXT,
    "customerFirstName" TEXT,
    "customerSurname" TEXT,
    "customerIpAddress" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Operation" (
    "id" VARCHAR(32) NOT NULL,
    "paymentId" VARCHAR(32) NOT NULL,
    "type" "OperationType" NOT NULL,
    "paymentType" TEXT,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "OperationStatus" NOT NULL DEFAULT 'pending',
    "processor" "Processor",
    "routingAttempt" INTEGER NOT NULL DEFAULT 1,
    "responseCode" TEXT,
    "authorizationCode" TEXT,
    "processorReference" TEXT,
    "eci" TEXT,
    "errorMessage" TEXT,
    "note" TEXT,
    "tags" TEXT,
    "responseId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "Operation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StoredCard" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "panEncrypted" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "panFingerprint" TEXT NOT NULL,
    "bin" VARCHAR(8) NOT NULL,
    "last4" CHAR(4) NOT NULL,
    "expMonth" INTEGER NOT NULL,
    "expYear" INTEGER NOT NULL,
    "scheme" TEXT NOT NULL,
    "funding" TEXT,
    "segment" TEXT,
    "issuer" TEXT,
    "country" TEXT,
    "panType" "PanType" NOT NULL DEFAULT 'fpan',
    "par" VARCHAR(29),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StoredCard_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ThreeDsAuthentication" (
    "id" TEXT NOT NULL,
    "paymentId" VARCHAR(32) NOT NULL,
    "threeDsServerTransId" TEXT NOT NULL,
    "acsTransId" TEXT,
    "dsTransId" TEXT,
    "messageVersion" TEXT NOT NULL DEFAULT '2.2.0',
    "transStatus" TEXT,
    "transStatusReason" TEXT,
    "eci" TEXT,
    "authenticationValue" TEXT,
    "challengeRequired" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'started',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "ThreeDsAuthentication_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "User_merchantId_idx" ON "User"("merchantId");

-- CreateIndex
CREATE INDEX "SignInAttempt_email_createdAt_idx" ON "SignInAttempt"("email", "createdAt");

-- CreateIndex
CREATE INDEX "SignInAttempt_ipAddress_createdAt_idx" ON "SignInAttempt"("ipAddress", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_merchantId_createdAt_idx" ON "ApiKey"("merchantId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "HostedIntegration_merchantId_hostedId_key" ON "HostedIntegration"("merchantId", "hostedId");

-- CreateIndex
CREATE INDEX "AuditEntry_merchantId_createdAt_idx" ON "AuditEntry"("merchantId", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_merchantId_createdAt_idx" ON "Notification"("merchantId", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_paymentId_idx" ON "Notification"("paymentId");

-- CreateIndex
CREATE INDEX "Notification_status_nextAttemptAt_idx" ON "Notification"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationAttempt_notificationId_attemptNumber_key" ON "NotificationAttempt"("notificationId", "attemptNumber");

-- CreateIndex
CREATE INDEX "ApiRequest_merchantId_createdAt_idx" ON "ApiRequest"("merchantId", "createdAt");

-- CreateIndex
CREATE INDEX "ApiRequest_traceApi_idx" ON "ApiRequest"("traceApi");

-- CreateIndex
CREATE INDEX "IdempotencyRecord_createdAt_idx" ON "IdempotencyRecord"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentSession_paymentId_key" ON "PaymentSession"("paymentId");

-- CreateIndex
CREATE INDEX "PaymentSession_merchantId_createdAt_idx" ON "PaymentSession"("merchantId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentSession_status_expiresAt_idx" ON "PaymentSession"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "Payment_merchantId_createdAt_id_idx" ON "Payment"("merchantId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Payment_merchantId_status_createdAt_idx" ON "Payment"("merchantId", "status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Payment_merchantId_reference_idx" ON "Payment"("merchantId", "reference");

-- CreateIndex
CREATE INDEX "Payment_merchantId_processor_createdAt_idx" ON "Payment"("merchantId", "processor", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Payment_parentPaymentId_idx" ON "Payment"("parentPaymentId");

-- CreateIndex
CREATE INDEX "Payment_storedCardId_idx" ON "Payment"("storedCardId");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_merchantId_merchantPaymentId_key" ON "Payment"("merchantId", "merchantPaymentId");

-- CreateIndex
CREATE INDEX "Operation_paymentId_createdAt_idx" ON "Operation"("paymentId", "createdAt");

-- CreateIndex
CREATE INDEX "Operation_responseId_idx" ON "Operation"("responseId");

-- CreateIndex
CREATE INDEX "Operation_processor_createdAt_idx" ON "Operation"("processor", "createdAt");

-- CreateIndex
CREATE INDEX "StoredCard_merchantId_panFingerprint_idx" ON "StoredCard"("merchantId", "panFingerprint");

-- CreateIndex
CREATE INDEX "StoredCard_merchantId_last4_idx" ON "StoredCard"("merchantId", "last4");

-- CreateIndex
CREATE UNIQUE INDEX "ThreeDsAuthentication_threeDsServerTransId_key" ON "ThreeDsAuthentication"("threeDsServerTransId");

-- CreateIndex
CREATE INDEX "ThreeDsAuthentication_paymentId_idx" ON "ThreeDsAuthentication"("paymentId");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SignInAttempt" ADD CONSTRAINT "SignInAttempt_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HostedIntegration" ADD CONSTRAINT "HostedIntegration_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProcessorRouting" ADD CONSTRAINT "ProcessorRouting_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationAttempt" ADD CONSTRAINT "NotificationAttempt_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiRequest" ADD CONSTRAINT "ApiRequest_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdempotencyRecord" ADD CONSTRAINT "IdempotencyRecord_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentSession" ADD CONSTRAINT "PaymentSession_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentSession" ADD CONSTRAINT "PaymentSession_hostedIntegrationId_fkey" FOREIGN KEY ("hostedIntegrationId") REFERENCES "HostedIntegration"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentSession" ADD CONSTRAINT "PaymentSession_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_parentPaymentId_fkey" FOREIGN KEY ("parentPaymentId") REFERENCES "Payment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_storedCardId_fkey" FOREIGN KEY ("storedCardId") REFERENCES "StoredCard"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Operation" ADD CONSTRAINT "Operation_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StoredCard" ADD CONSTRAINT "StoredCard_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ThreeDsAuthentication" ADD CONSTRAINT "ThreeDsAuthentication_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
