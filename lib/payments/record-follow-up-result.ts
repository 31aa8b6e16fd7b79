// Writes a processor's answer to a pending capture, refund or void, brings the payment's amounts
// and status in line with its approved operations, and stores the merchant's notification of the
// result (the outbox row), in one transaction. Recomputing from the operations (rather than adding
// to counters) makes a repeated call harmless.
import type { AcquirerName } from "../acquirers/names";
import { db, type Tx } from "../db";
import type { ProcessorResult } from "../acquirers/contract";
import { noteLateAnswer } from "./alert-operator";
import { notifyOperationResult } from "./notify-operation-result";
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

/**
 * Returns false when the operation was no longer pending (already recorded): an answer that
 * contradicts the recorded one then alerts an operator with both facts, never a silent drop.
 */
export async function recordFollowUpResult({
  operationId,
  result,
  processor,
  source = "the acquirer",
  now = new Date(),
  tx: outer,
}: RecordFollowUpResultOptions): Promise<boolean> {
  let afterCommit: (() => Promise<void>) | undefined;
  const run = async (tx: Tx) => {
    const operation = await tx.operation.findUniqueOrThrow({
      where: { id: operationId },
      select: { paymentId: true, notificationUrl: true, type: true },
    });
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "id" = ${operation.paymentId} FOR UPDATE`;
    const updated = await tx.operation.updateMany({
      where: { id: operationId, status: "pending" },
      data: {
        ...operationResultFields(result, now),
        processor: processor ?? undefined,
      },
    });
    if (updated.count === 0) {
      await noteLateAnswer({ operationId, answer: result, source, now, tx });
      return false;
    }
    const { refundsWaiting } = await syncPaymentAmounts(tx, operation.paymentId);
    // Refunds accepted while this capture was pending run now, or fail with its reason (the look-up
    // only when the statement above saw one: a statement per capture saved, issue 29).
    if (operation.type === "capture" && refundsWaiting) {
      afterCommit = await wakeWaitingRefunds(tx, { paymentId: operation.paymentId, captureOperationId: operationId });
    }
    // A merchant request's operation (it has an address) is notified; an instant capture is
    // reported by the payment's completion notification instead.
    if (operation.notificationUrl) await notifyOperationResult({ operationId, tx });
    return true;
  };
  // In the caller's transaction the wake-up's outbox rows commit with it (embedded mode); with an
  // Inngest server the stalled-work job sends a waiting refund's event within a minute instead.
  if (outer) return run(outer);
  const recorded = await db().$transaction(run);
  await afterCommit?.();
  return recorded;
}
