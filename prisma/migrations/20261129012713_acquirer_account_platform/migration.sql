-- AlterTable
ALTER TABLE "AcquirerAccount" ADD COLUMN     "platform" TEXT;

-- The follow-up lock also answers the platform of the account that authorized (decision 0193): what
-- a capture or refund may do is that platform's (a bambora account on Worldline captures several times).
DROP FUNCTION "cps_lock_follow_up_payment"(text, "Mode", text);
CREATE FUNCTION "cps_lock_follow_up_payment"("p_merchant_id" text, "p_mode" "Mode", "p_ref" text)
RETURNS TABLE ("id" text, "status" text, "processor" text, "platform" text, "authorizedAmount" bigint, "currency" text,
  "hostedUrl" text, "merchantUrl" text, "sessionUrl" text, "paymentUrl" text, "totals" jsonb)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  "locked" record;
BEGIN
  -- The paymentid wins when a paymentid equals another payment's merchantpaymentid. Only the
  -- payment's row is locked; the joined rows are read as they are. The configured addresses are
  -- the payment's mode's (the unprefixed columns are live mode's).
  SELECT p."id", p."status"::text AS "status", p."processor"::text AS "processor", a."platform" AS "platform", p."authorizedAmount", p."currency",
         CASE WHEN p."mode" = 'live' THEN h."defaultNotificationUrl" ELSE h."testDefaultNotificationUrl" END AS "hostedUrl",
         CASE WHEN p."mode" = 'live' THEN m."defaultNotificationUrl" ELSE m."testDefaultNotificationUrl" END AS "merchantUrl",
         s."notificationUrl" AS "sessionUrl", p."notificationUrl" AS "paymentUrl"
    INTO "locked"
    FROM "Payment" p
    JOIN "Merchant" m ON m."id" = p."merchantId"
    LEFT JOIN "AcquirerAccount" a ON a."id" = p."acquirerAccountId"
    LEFT JOIN "PaymentSession" s ON s."paymentId" = p."id"
    LEFT JOIN "HostedIntegration" h ON h."id" = s."hostedIntegrationId" AND h."merchantId" = p."merchantId"
    WHERE p."merchantId" = "p_merchant_id" AND p."mode" = "p_mode" AND (p."id" = "p_ref" OR p."merchantPaymentId" = "p_ref")
    ORDER BY (p."id" = "p_ref") DESC
    LIMIT 1
    FOR UPDATE OF p;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- A new snapshot: after the lock. The sums as text (JSON numbers are doubles).
  RETURN QUERY SELECT "locked"."id"::text, "locked"."status"::text, "locked"."processor"::text, "locked"."platform"::text, "locked"."authorizedAmount"::bigint,
    "locked"."currency"::text, "locked"."hostedUrl"::text, "locked"."merchantUrl"::text, "locked"."sessionUrl"::text, "locked"."paymentUrl"::text,
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('type', t."type", 'status', t."status", 'sum', t."sum"::text, 'count', t."count")), '[]'::jsonb)
     FROM (SELECT o."type"::text AS "type", o."status"::text AS "status", SUM(o."amount")::bigint AS "sum", COUNT(*)::int AS "count"
           FROM "Operation" o
           WHERE o."paymentId" = "locked"."id"
             AND o."type"::text IN ('capture', 'refund', 'void') AND o."status"::text IN ('pending', 'approved')
           GROUP BY 1, 2) t);
END;
$$;
