// Wakes the refunds of a payment that wait for its capture (lib/payments/claim-refund-after-captures.ts),
// in the transaction that records a capture's result.
import type { Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { followUpRequested } from "../inngest/events/merchant-api";
import { sendEventInTransaction } from "../inngest/send-event";

/**
 * The refunds of payment `p` (the alias of the outer query's "Payment" row) that wait for a capture:
 * one definition for the look-up below and for the guard that syncPaymentAmounts returns in the
 * statement recording the capture (lib/payments/record-follow-up-result.ts), so that a capture of a
 * payment without waiting refunds (nearly every one) costs no statement here.
 */
export const WAITING_REFUNDS_OF_P = Prisma.sql`
  SELECT w."id" FROM "Operation" w
  WHERE w."paymentId" = p."id" AND w."type" = 'refund' AND w."status" = 'pending'
    AND w."waitingSince" IS NOT NULL AND w."outcomeUnknownSince" IS NULL`;

/**
 * Wakes the refunds of the payment that wait for a capture, in the transaction that records the
 * capture's result (an outbox event each, under an id of their own: the refund's first event is
 * spent). Returns what to run after the commit.
 */
export async function wakeWaitingRefunds(tx: Tx, { paymentId, captureOperationId }: { paymentId: string; captureOperationId: string }) {
  const waiting = await tx.$queryRaw<{ id: string }[]>`
    SELECT q."id" FROM "Payment" p CROSS JOIN LATERAL (${WAITING_REFUNDS_OF_P}) q WHERE p."id" = ${paymentId}`;
  const afterCommit: (() => Promise<void>)[] = [];
  for (const { id } of waiting) {
    afterCommit.push(
      await sendEventInTransaction(tx, { type: followUpRequested, data: { operationId: id }, id: `follow-up-${id}-after-${captureOperationId}` }),
    );
  }
  return async () => {
    for (const run of afterCommit) await run();
  };
}
