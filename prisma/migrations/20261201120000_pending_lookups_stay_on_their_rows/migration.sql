-- Lookups of one row, one payment's rows or one notification's copies never filter "status" through
-- an index (issue 37, docs/decisions/0237-pending-lookups-stay-on-their-rows.md). The statistics of
-- "Operation" and "Notification" are nearly always taken while almost nothing is pending, so the
-- planner expects less than one pending row and reads a payment's pending notifications, or even
-- one operation by its primary key, through "Operation"(status, outcomeUnknownSince) and
-- "Notification"(status, nextAttemptAt): every pending row of every merchant, for each lookup. The
-- record of one capture then cost more the more work was waiting. Compared as text, the status is
-- a filter on the rows the payment's, the notification's or the primary key's index finds. The
-- functions are otherwise as 20261130030000_follow_up_record_reads_first_attempt and
-- 20261129120000_record_follow_up_in_one_round_trip left them (same signatures, same answers).

CREATE OR REPLACE FUNCTION cps_waiting_refunds(p_payment_id text)
 RETURNS TABLE(id text)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT w."id" FROM "Operation" w
  WHERE w."paymentId" = "p_payment_id" AND w."type" = 'refund' AND w."status"::text = 'pending'
    AND w."waitingSince" IS NOT NULL AND w."outcomeUnknownSince" IS NULL
$function$;

CREATE OR REPLACE FUNCTION cps_notification_for_attempt(p_id text, p_now timestamp without time zone, p_with_copies boolean)
 RETURNS TABLE(id text, "merchantId" text, mode text, kind text, url text, body text, status text, "attemptCount" integer, "endpointId" text, "paymentId" text, "copyOfId" text, "createdAt" timestamp without time zone, secrets json, copies text[])
 LANGUAGE sql
 STABLE
AS $function$
  SELECT n."id", n."merchantId", n."mode"::text, n."kind"::text, n."url", n."body", n."status"::text,
    n."attemptCount", n."endpointId"::text, n."paymentId"::text, n."copyOfId", n."createdAt",
    COALESCE((SELECT json_agg(json_build_object('id', s."id", 'sealed', s."sealed") ORDER BY s."createdAt" DESC, s."id" DESC)
      FROM "SigningSecret" s WHERE s."merchantId" = n."merchantId" AND s."endpointId" IS NOT DISTINCT FROM n."endpointId"
        AND s."mode" = n."mode" AND (s."expiresAt" IS NULL OR s."expiresAt" > "p_now")), '[]'::json),
    CASE WHEN "p_with_copies" THEN ARRAY(SELECT c."id"::text FROM "Notification" c
      WHERE c."copyOfId" = n."id" AND c."attemptCount" = 0 AND c."status"::text = 'pending' ORDER BY c."id")
    ELSE ARRAY[]::text[] END
  FROM "Notification" n
  WHERE n."id" = "p_id"
$function$;

CREATE OR REPLACE FUNCTION cps_record_follow_up(p_operation_id text, p_status "OperationStatus", p_response_code text, p_authorization_code text, p_processor_reference text, p_error_message text, p_completed_at timestamp without time zone, p_processor "Processor", p_follow_up_types text[], p_now timestamp without time zone, p_stop_if_refunds_waiting boolean, p_notification_id text, p_notification_kind "NotificationKind", p_notification_url text, p_notification_body text)
 RETURNS TABLE(outcome text, "refundsWaiting" boolean, "notificationId" text, "firstAttempt" json)
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
DECLARE
  "op" record;
  "waiting" boolean;
  "first" json;
BEGIN
  SELECT o."paymentId", o."type"::text AS "type", p."merchantId", p."mode"
    INTO "op"
    FROM "Operation" o JOIN "Payment" p ON p."id" = o."paymentId"
    WHERE o."id" = "p_operation_id"
    FOR UPDATE OF p;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'operation % does not exist', "p_operation_id";
  END IF;
  -- A new snapshot from here on: after the lock.
  IF "p_stop_if_refunds_waiting" AND "op"."type" = 'capture' AND EXISTS (SELECT 1 FROM "cps_waiting_refunds"("op"."paymentId")) THEN
    RETURN QUERY SELECT 'refunds-waiting'::text, true, NULL::text, NULL::json;
    RETURN;
  END IF;
  UPDATE "Operation" SET
    "status" = "p_status",
    "responseCode" = "p_response_code",
    "authorizationCode" = "p_authorization_code",
    "processorReference" = "p_processor_reference",
    "errorMessage" = "p_error_message",
    "completedAt" = "p_completed_at",
    "processor" = COALESCE("p_processor", "processor")
  WHERE "id" = "p_operation_id" AND "status"::text = 'pending';
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'late'::text, false, NULL::text, NULL::json;
    RETURN;
  END IF;
  UPDATE "Payment" p SET
    "capturedAmount" = t."captured",
    "refundedAmount" = t."refunded",
    "balance" = t."captured" - t."refunded",
    "status" = CASE WHEN t."voided" THEN 'VOIDED'::"PaymentStatus"
                    WHEN t."refunded" > 0 THEN 'REFUNDED'::"PaymentStatus"
                    WHEN t."captured" > 0 THEN 'CAPTURED'::"PaymentStatus"
                    ELSE p."status" END,
    "updatedAt" = "p_now"
  FROM (
    SELECT COALESCE(SUM(x."amount") FILTER (WHERE x."type" = 'capture'), 0)::bigint AS "captured",
           COALESCE(SUM(x."amount") FILTER (WHERE x."type" = 'refund'), 0)::bigint AS "refunded",
           COALESCE(bool_or(x."type" = 'void'), false) AS "voided"
    FROM "Operation" x
    WHERE x."paymentId" = "op"."paymentId" AND x."status"::text = 'approved' AND x."type"::text = ANY("p_follow_up_types")
  ) t
  WHERE p."id" = "op"."paymentId";
  "waiting" := EXISTS (SELECT 1 FROM "cps_waiting_refunds"("op"."paymentId"));
  IF "p_notification_body" IS NOT NULL THEN
    PERFORM "cps_enqueue_notification"("p_notification_id", "op"."merchantId", "op"."mode", "op"."paymentId",
      "p_notification_kind", "p_notification_url", "p_notification_body", "p_now", true);
    -- A new snapshot again: everything of the payment committed before its lock was granted, and
    -- this transaction's own rows. Its first attempt needs nothing more when the notification is
    -- new (never attempted) and nothing else of the payment is pending and its window is closed:
    -- then the ordering rule cannot hold it back (lib/notifications/hold-back.ts, "quiet").
    SELECT row_to_json(a) INTO "first"
      FROM "cps_notification_for_attempt"("p_notification_id", "p_now", true) a
      WHERE a."attemptCount" = 0 AND a."status" = 'pending'
        AND NOT EXISTS (
          SELECT 1 FROM "Notification" o
          WHERE o."paymentId" = "op"."paymentId" AND o."status"::text = 'pending' AND o."id" <> "p_notification_id"
            AND o."copyOfId" IS DISTINCT FROM "p_notification_id" AND o."kind" NOT IN ('test', 'payment_details'))
        AND NOT EXISTS (
          SELECT 1 FROM "PaymentSession" s WHERE s."paymentId" = "op"."paymentId" AND s."status"::text IN ('OPEN', 'PROCESSING'));
  END IF;
  RETURN QUERY SELECT 'recorded'::text, "waiting", CASE WHEN "p_notification_body" IS NULL THEN NULL ELSE "p_notification_id" END, "first";
END;
$function$;
