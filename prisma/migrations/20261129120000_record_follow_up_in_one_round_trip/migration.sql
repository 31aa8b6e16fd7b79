-- A follow-up's answer recorded in one round trip (lib/payments/record-follow-up-result.ts, issue 37,
-- docs/decisions/0195-a-follow-up-answer-is-recorded-in-one-round-trip.md). A PL/pgSQL function runs
-- each statement with a new snapshot under READ COMMITTED: the amounts are summed after the payment's
-- lock is granted and include what another operation of the payment committed meanwhile, as the
-- separate statements they replace did; in one plain statement they would not.

-- The refunds of a payment that wait for a capture (lib/payments/claim-refund-after-captures.ts):
-- one definition for the record's guard below and for their wake-up (wake-waiting-refunds.ts).
CREATE FUNCTION "cps_waiting_refunds"("p_payment_id" text)
RETURNS TABLE ("id" text)
LANGUAGE sql STABLE AS $$
  SELECT w."id" FROM "Operation" w
  WHERE w."paymentId" = "p_payment_id" AND w."type" = 'refund' AND w."status" = 'pending'
    AND w."waitingSince" IS NOT NULL AND w."outcomeUnknownSince" IS NULL
$$;

-- The notification outbox row and, in the same statement, a copy for each enabled webhook endpoint
-- of its merchant and mode subscribed to its kind (an endpoint at the notification's own address gets
-- none: one POST per address; a test notification goes to the configured address only). With
-- "p_if_absent" a row of that id already stored is kept as it is and no copy is made; without it
-- such a row fails the insert. The only definition (lib/notifications/enqueue-notification.ts calls it).
CREATE FUNCTION "cps_enqueue_notification"("p_id" text, "p_merchant_id" text, "p_mode" "Mode", "p_payment_id" text,
  "p_kind" "NotificationKind", "p_url" text, "p_body" text, "p_now" timestamp(3), "p_if_absent" boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF "p_if_absent" THEN
    INSERT INTO "Notification" ("id", "merchantId", "mode", "paymentId", "kind", "url", "body", "nextAttemptAt")
    VALUES ("p_id", "p_merchant_id", "p_mode", "p_payment_id", "p_kind", "p_url", "p_body", "p_now")
    ON CONFLICT ("id") DO NOTHING;
    IF NOT FOUND THEN
      RETURN;
    END IF;
  ELSE
    INSERT INTO "Notification" ("id", "merchantId", "mode", "paymentId", "kind", "url", "body", "nextAttemptAt")
    VALUES ("p_id", "p_merchant_id", "p_mode", "p_payment_id", "p_kind", "p_url", "p_body", "p_now");
  END IF;
  INSERT INTO "Notification" ("id", "merchantId", "mode", "paymentId", "kind", "url", "body", "nextAttemptAt", "endpointId", "copyOfId")
  SELECT "p_id" || '_' || e."id", e."merchantId", e."mode", "p_payment_id", "p_kind", e."url", "p_body", "p_now", e."id", "p_id"
  FROM "WebhookEndpoint" e
  WHERE e."merchantId" = "p_merchant_id" AND e."mode" = "p_mode" AND e."enabled" AND e."url" <> "p_url"
    AND "p_kind" <> 'test' AND (cardinality(e."kinds") = 0 OR "p_kind" = ANY(e."kinds"));
END;
$$;

-- A processor's answer to a pending capture, refund or void: the payment's row lock, the answer on
-- the operation (only while it is pending), the payment's amounts and status recomputed from its
-- approved follow-ups ("p_follow_up_types", the kinds table's list), and the merchant's notification
-- (its body made by the caller, null when none is sent), all or nothing. Answers:
--  - "recorded", with whether refunds wait for this payment's capture and the notification's id;
--  - "late": the operation was no longer pending, nothing was written;
--  - "refunds-waiting": asked to stop there ("p_stop_if_refunds_waiting"), a capture whose payment
--    has refunds waiting for it, nothing was written: the caller records it again in a transaction
--    of its own that wakes them.
CREATE FUNCTION "cps_record_follow_up"("p_operation_id" text, "p_status" "OperationStatus", "p_response_code" text,
  "p_authorization_code" text, "p_processor_reference" text, "p_error_message" text, "p_completed_at" timestamp(3),
  "p_processor" "Processor", "p_follow_up_types" text[], "p_now" timestamp(3), "p_stop_if_refunds_waiting" boolean,
  "p_notification_id" text, "p_notification_kind" "NotificationKind", "p_notification_url" text, "p_notification_body" text)
RETURNS TABLE ("outcome" text, "refundsWaiting" boolean, "notificationId" text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  "op" record;
  "waiting" boolean;
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
    RETURN QUERY SELECT 'refunds-waiting'::text, true, NULL::text;
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
  WHERE "id" = "p_operation_id" AND "status" = 'pending';
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'late'::text, false, NULL::text;
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
    WHERE x."paymentId" = "op"."paymentId" AND x."status" = 'approved' AND x."type"::text = ANY("p_follow_up_types")
  ) t
  WHERE p."id" = "op"."paymentId";
  "waiting" := EXISTS (SELECT 1 FROM "cps_waiting_refunds"("op"."paymentId"));
  IF "p_notification_body" IS NOT NULL THEN
    PERFORM "cps_enqueue_notification"("p_notification_id", "op"."merchantId", "op"."mode", "op"."paymentId",
      "p_notification_kind", "p_notification_url", "p_notification_body", "p_now", true);
  END IF;
  RETURN QUERY SELECT 'recorded'::text, "waiting", CASE WHEN "p_notification_body" IS NULL THEN NULL ELSE "p_notification_id" END;
END;
$$;
