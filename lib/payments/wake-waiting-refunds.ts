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
  // cps_waiting_refunds: one definition for this look-up and for the guard of the record's round
  // trip (prisma/migrations/20261129120000_record_follow_up_in_one_round_trip), so that a capture of
  // a payment without waiting refunds (nearly every one) costs no statement here.
  const waiting = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "cps_waiting_refunds"(${paymentId})`;
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
