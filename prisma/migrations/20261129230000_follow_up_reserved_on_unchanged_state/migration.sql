-- A capture, refund or void in two statements without BEGIN and COMMIT (decision 0212): the payment
-- is read without a lock, the amount rules decide in TypeScript, and one statement inserts the
-- operation with its outbox event only if cps_follow_up_unchanged, which takes the payment's lock,
-- finds the state the rules decided on unchanged. Replaces cps_lock_follow_up_payment (decision 0174).
DROP FUNCTION "cps_lock_follow_up_payment"(text, "Mode", text);

-- The operation totals the amount rules read (lib/payments/operation-totals.ts), in one canonical
-- order so that two readings of the same operations are equal as jsonb. The sums as text (JSON
-- numbers are doubles).
CREATE FUNCTION "cps_follow_up_totals"("p_payment_id" text) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(jsonb_agg(jsonb_build_object('type', t."type", 'status', t."status", 'sum', t."sum"::text, 'count', t."count") ORDER BY t."type", t."status"), '[]'::jsonb)
  FROM (SELECT o."type"::text AS "type", o."status"::text AS "status", SUM(o."amount")::bigint AS "sum", COUNT(*)::int AS "count"
        FROM "Operation" o
        WHERE o."paymentId" = "p_payment_id"
          AND o."type"::text IN ('capture', 'refund', 'void') AND o."status"::text IN ('pending', 'approved')
        GROUP BY 1, 2) t
$$;

-- The first statement of a follow-up request: the payment by paymentid or merchantpaymentid (the
-- paymentid wins when it equals another payment's merchantpaymentid), every address its result may
-- go to (the configured ones are the payment's mode's: the unprefixed columns are live mode's), and
-- its totals, in one snapshot and without a lock.
CREATE FUNCTION "cps_read_follow_up_payment"("p_merchant_id" text, "p_mode" "Mode", "p_ref" text)
RETURNS TABLE ("id" text, "status" text, "processor" text, "platform" text, "authorizedAmount" bigint, "currency" text,
  "hostedUrl" text, "merchantUrl" text, "sessionUrl" text, "paymentUrl" text, "totals" jsonb)
LANGUAGE sql STABLE AS $$
  SELECT p."id", p."status"::text, p."processor"::text, a."platform", p."authorizedAmount", p."currency",
         CASE WHEN p."mode" = 'live' THEN h."defaultNotificationUrl" ELSE h."testDefaultNotificationUrl" END,
         CASE WHEN p."mode" = 'live' THEN m."defaultNotificationUrl" ELSE m."testDefaultNotificationUrl" END,
         s."notificationUrl", p."notificationUrl",
         "cps_follow_up_totals"(p."id")
    FROM "Payment" p
    JOIN "Merchant" m ON m."id" = p."merchantId"
    LEFT JOIN "AcquirerAccount" a ON a."id" = p."acquirerAccountId"
    LEFT JOIN "PaymentSession" s ON s."paymentId" = p."id"
    LEFT JOIN "HostedIntegration" h ON h."id" = s."hostedIntegrationId" AND h."merchantId" = p."merchantId"
   WHERE p."merchantId" = "p_merchant_id" AND p."mode" = "p_mode" AND (p."id" = "p_ref" OR p."merchantPaymentId" = "p_ref")
   ORDER BY (p."id" = "p_ref") DESC
   LIMIT 1
$$;

-- The guard of a follow-up's reservation: takes the payment's row lock (held until the calling
-- statement's transaction ends, so the reservation is written under it) and answers whether the
-- payment's status, authorized amount and totals are still those the request was decided on. The
-- totals are read in a statement of their own, after the lock is granted: PL/pgSQL gives it a new
-- snapshot under READ COMMITTED, which includes what a transaction that held the lock committed.
CREATE FUNCTION "cps_follow_up_unchanged"("p_payment_id" text, "p_status" text, "p_authorized" bigint, "p_totals" jsonb)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  "locked" record;
  "now_totals" jsonb;
BEGIN
  SELECT p."status"::text AS "status", p."authorizedAmount" AS "authorized"
    INTO "locked"
    FROM "Payment" p
   WHERE p."id" = "p_payment_id"
     FOR UPDATE;
  IF NOT FOUND OR "locked"."status" IS DISTINCT FROM "p_status" OR "locked"."authorized" IS DISTINCT FROM "p_authorized" THEN
    RETURN false;
  END IF;
  SELECT "cps_follow_up_totals"(p."id") INTO "now_totals" FROM "Payment" p WHERE p."id" = "p_payment_id";
  RETURN "now_totals" = "p_totals";
END;
$$;
