// Writes a processor's answer to a pending capture, refund or void, brings the payment's amounts
// and status in line with its approved operations, and stores the merchant's notification of the
// result (the outbox row), in one transaction. Recomputing from the operations (rather than adding
// to counters) makes a repeated call harmless.
import type { AcquirerName } from "../acquirers/names";
import { db, type Tx } from "../db";
import type { ProcessorResult } from "../acquirers/contract";
import { noteLateAnswer } from "./alert-operator";
import { storeOperationNotification } from "./notify-operation-result";
import type { Mode } from "../mode";
import { operationResultFields } from "./operation-result-fields";
import { WAITING_REFUNDS_OF_P, wakeWaitingRefunds } from "./wake-waiting-refunds";
import { FOLLOW_UP_TYPES_SQL } from "./follow-ups/kinds";

export interface RecordFollowUpResultOptions {
  operationId: string;
  result: Pick<ProcessorResult, "status" | "responsecode" | "authorizationcode" | "processorReference" | "message">;
  processor: AcquirerName | null;
  /** Who gave the answer, for the operator alert when it contradicts an earlier settlement. */
  source?: string;
  now?: Date;
  /** The caller's transaction (an operator's settlement writes its audit entry in it); else one of its own. */
  tx?: Tx;
}

/** Whether refunds of the payment wait for a capture (wake-waiting-refunds.ts), read in the same statement. */
export async function syncPaymentAmounts(tx: Tx, paymentId: string): Promise<{ refundsWaiting: boolean }> {
  // One statement (it was three through the ORM: the status, a groupBy and the update): the totals
  // of the approved follow-ups and the status they give, written in place. The caller holds the
  // payment's row lock, so no other operation of this payment is recorded meanwhile.
  const [row] = await tx.$queryRaw<{ refundsWaiting: boolean }[]>`
    UPDATE "Payment" p SET
      "capturedAmount" = t."captured",
      "refundedAmount" = t."refunded",
      "balance" = t."captured" - t."refunded",
      "status" = CASE WHEN t."voided" THEN 'VOIDED'::"PaymentStatus"
                      WHEN t."refunded" > 0 THEN 'REFUNDED'::"PaymentStatus"
                      WHEN t."captured" > 0 THEN 'CAPTURED'::"PaymentStatus"
                      ELSE p."status" END,
      "updatedAt" = ${new Date()}
    FROM (
      SELECT COALESCE(SUM("amount") FILTER (WHERE "type" = 'capture'), 0)::bigint AS "captured",
             COALESCE(SUM("amount") FILTER (WHERE "type" = 'refund'), 0)::bigint AS "refunded",
             COALESCE(bool_or("type" = 'void'), false) AS "voided"
      FROM "Operation"
      WHERE "paymentId" = ${paymentId} AND "status" = 'approved' AND "type" IN (${FOLLOW_UP_TYPES_SQL})
    ) t
    WHERE p."id" = ${paymentId}
    RETURNING EXISTS (${WAITING_REFUNDS_OF_P}) AS "refundsWaiting"`;
  return { refundsWaiting: row?.refundsWaiting ?? false };
}

export interface FollowUpRecord {
  /** False when the operation was no longer pending (already recorded). */
  recorded: boolean;
  /** The notification stored with the result (dispatch it after the commit), null when none. */
  notificationId: string | null;
}

/**
 * Returns false when the operation was no longer pending (already recorded): an answer that
 * contradicts the recorded one then alerts an operator with both facts, never a silent drop.
 */
export async function recordFollowUpResult(options: RecordFollowUpResultOptions): Promise<boolean> {
  return (await recordFollowUpResultAndNotification(options)).recorded;
}

/**
 * The same, with the id of the notification stored in the same transaction, so a caller that
 * delivers it needs no read to find it (the follow-up job, issue 37).
 */
export async function recordFollowUpResultAndNotification({
  operationId,
  result,
  processor,
  source = "the acquirer",
  now = new Date(),
  tx: outer,
}: RecordFollowUpResultOptions): Promise<FollowUpRecord> {
  let afterCommit: (() => Promise<void>) | undefined;
  const run = async (tx: Tx): Promise<FollowUpRecord> => {
    // The payment's row lock and what the notification needs of the operation and the payment, in
    // one statement (they were four through the ORM, issue 37). Only columns no one changes after
    // the operation is accepted are read here; the answer's own are returned by the update below.
    const [operation] = await tx.$queryRaw<
      { paymentId: string; notificationUrl: string | null; type: string; merchantId: string; mode: Mode; merchantPaymentId: string | null }[]
    >`
      SELECT o."paymentId", o."notificationUrl", o."type"::text AS "type",
             p."merchantId", p."mode"::text AS "mode", p."merchantPaymentId"
      FROM "Operation" o JOIN "Payment" p ON p."id" = o."paymentId"
      WHERE o."id" = ${operationId}
      FOR UPDATE OF p`;
    if (!operation) throw new Error(`operation ${operationId} does not exist`);
    const [updated] = await tx.operation.updateManyAndReturn({
      where: { id: operationId, status: "pending" },
      data: {
        ...operationResultFields(result, now),
        processor: processor ?? undefined,
      },
      select: { status: true, responseCode: true, authorizationCode: true, responseId: true },
    });
    if (!updated) {
      await noteLateAnswer({ operationId, answer: result, source, now, tx });
      return { recorded: false, notificationId: null };
    }
    const { refundsWaiting } = await syncPaymentAmounts(tx, operation.paymentId);
    // Refunds accepted while this capture was pending run now, or fail with its reason (the look-up
    // only when the statement above saw one: a statement per capture saved, issue 29).
    if (operation.type === "capture" && refundsWaiting) {
      afterCommit = await wakeWaitingRefunds(tx, { paymentId: operation.paymentId, captureOperationId: operationId });
    }
    // A merchant request's operation (it has an address) is notified; an instant capture is
    // reported by the payment's completion notification instead.
    const notificationId = operation.notificationUrl
      ? await storeOperationNotification(tx, {
          operationId,
          type: operation.type,
          ...updated,
          url: operation.notificationUrl,
          payment: { id: operation.paymentId, merchantId: operation.merchantId, mode: operation.mode, merchantPaymentId: operation.merchantPaymentId },
        })
      : null;
    return { recorded: true, notificationId };
  };
  // In the caller's transaction the wake-up's outbox rows commit with it (embedded mode); with an
  // Inngest server the stalled-work job sends a waiting refund's event within a minute instead.
  if (outer) return run(outer);
  const record = await db().$transaction(run);
  await afterCommit?.();
  return record;
}
