// Wakes the refunds of a payment that wait for its capture (lib/payments/claim-refund-after-captures.ts),
// in the transaction that records a capture's result.
import type { Tx } from "../db";
import { followUpRequested } from "../inngest/events/merchant-api";
import { sendEventInTransaction } from "../inngest/send-event";

/**
 * Wakes the refunds of the payment that wait for a capture, in the transaction that records the
 * capture's result (an outbox event each, under an id of their own: the refund's first event is
 * spent). Returns what to run after the commit.
 */
export async function wakeWaitingRefunds(tx: Tx, { paymentId, captureOperationId }: { paymentId: string; captureOperationId: string }) {
  const waiting = await tx.operation.findMany({
    where: { paymentId, type: "refund", status: "pending", waitingSince: { not: null }, outcomeUnknownSince: null },
    select: { id: true },
  });
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
