-- Test mode and live mode (issue 27; docs/decisions.md, "Test mode and live mode").
--
-- Upgrade: every existing API key, hosted session, payment, stored card, notification and request-log
-- row becomes LIVE in production and TEST in local mode. SQL cannot read the environment, so the
-- service's migration runner (lib/db/migrations.ts) sets `cps.upgrade_mode` for this transaction:
-- 'test' when it runs in local mode (npm start, CPS_LOCAL=1), 'live' in production. Applied by
-- anything else (`prisma migrate deploy`), the setting is absent and the rows become live.
-- In local mode the merchant's and hosted integrations' notification addresses move to test mode's
-- columns with them (docs/operations.md, "Upgrading to test and live mode").

-- The acquirer accounts' test/live enum becomes the one mode of everything.
ALTER TYPE "AcquirerAccountMode" RENAME TO "Mode";

-- AlterTable
ALTER TABLE "Merchant" ADD COLUMN     "liveModeMinRole" "UserRole" NOT NULL DEFAULT 'DEVELOPER',
ADD COLUMN     "testCompletionNotificationUrl" TEXT,
ADD COLUMN     "testDefaultNotificationUrl" TEXT,
ADD COLUMN     "testLifecycleNotificationUrl" TEXT;

-- AlterTable
ALTER TABLE "HostedIntegration" ADD COLUMN     "testCompletionNotificationUrl" TEXT,
ADD COLUMN     "testDefaultNotificationUrl" TEXT,
ADD COLUMN     "testLifecycleNotificationUrl" TEXT;

DO $$
DECLARE
  upgrade_mode text := COALESCE(NULLIF(current_setting('cps.upgrade_mode', true), ''), 'live');
  target text;
BEGIN
  IF upgrade_mode NOT IN ('test', 'live') THEN
    RAISE EXCEPTION 'cps.upgrade_mode must be test or live, not %', upgrade_mode;
  END IF;
  -- A constant default fills existing rows without rewriting the table (PostgreSQL 11+); it is
  -- dropped below, so every new row must name its mode.
  FOREACH target IN ARRAY ARRAY['ApiKey', 'Notification', 'ApiRequest', 'PaymentSession', 'Payment', 'StoredCard'] LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN "mode" "Mode" NOT NULL DEFAULT %L', target, upgrade_mode);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN "mode" DROP DEFAULT', target);
  END LOOP;
  IF upgrade_mode = 'test' THEN
    UPDATE "Merchant" SET
      "testDefaultNotificationUrl" = "defaultNotificationUrl",
      "testCompletionNotificationUrl" = "completionNotificationUrl",
      "testLifecycleNotificationUrl" = "lifecycleNotificationUrl",
      "defaultNotificationUrl" = NULL, "completionNotificationUrl" = NULL, "lifecycleNotificationUrl" = NULL;
    UPDATE "HostedIntegration" SET
      "testDefaultNotificationUrl" = "defaultNotificationUrl",
      "testCompletionNotificationUrl" = "completionNotificationUrl",
      "testLifecycleNotificationUrl" = "lifecycleNotificationUrl",
      "defaultNotificationUrl" = NULL, "completionNotificationUrl" = NULL, "lifecycleNotificationUrl" = NULL;
  END IF;
END $$;

-- Lists, searches and the request log read one merchant's rows of one mode.
DROP INDEX "Notification_merchantId_createdAt_idx";
CREATE INDEX "Notification_merchantId_mode_createdAt_idx" ON "Notification"("merchantId", "mode", "createdAt");

DROP INDEX "ApiRequest_merchantId_createdAt_idx";
CREATE INDEX "ApiRequest_merchantId_mode_createdAt_idx" ON "ApiRequest"("merchantId", "mode", "createdAt");

DROP INDEX "Payment_merchantId_createdAt_id_idx";
CREATE INDEX "Payment_merchantId_mode_createdAt_id_idx" ON "Payment"("merchantId", "mode", "createdAt" DESC, "id" DESC);

-- A merchantpaymentid is unique per merchant and mode: an order number used while testing can be used live.
DROP INDEX "Payment_merchantId_merchantPaymentId_key";
CREATE UNIQUE INDEX "Payment_merchantId_mode_merchantPaymentId_key" ON "Payment"("merchantId", "mode", "merchantPaymentId");
