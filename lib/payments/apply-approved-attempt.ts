// A payment whose authorization attempt the acquirer approved after the payment's own request had
// ended (found by a look-up, or recorded by an operator): the payment is authorized with that
// attempt, as it would have been had the answer arrived in time. Nothing is sent to an acquirer.
import { db, type Tx } from "../db";
import { RECONCILED_MARK } from "../routing/reconcile-timed-out-authorizations";

/** The approved attempt of the payment, if any (the latest). */
export async function approvedAttemptOf(paymentId: string, tx?: Tx) {
  return (tx ?? db()).operation.findFirst({
    // An approval voided because it came too late (marked by the late-approval reconciliation) authorizes nothing.
    where: {
      paymentId,
      type: "authorize",
      status: "approved",
      OR: [{ errorMessage: null }, { NOT: { errorMessage: { startsWith: RECONCILED_MARK } } }],
    },
    orderBy: { createdAt: "desc" },
    select: { id: true, processor: true, acquirerAccountId: true, responseCode: true, authorizationCode: true, processorReference: true, eci: true },
  });
}

/** Returns true when this call authorized the payment (false: no approved attempt, or already done). */
export async function applyApprovedAttempt({ paymentId, tx }: { paymentId: string; tx?: Tx }): Promise<boolean> {
  const client = tx ?? db();
  const attempt = await approvedAttemptOf(paymentId, tx);
  if (!attempt?.processor) return false;
  const payment = await client.payment.findUniqueOrThrow({ where: { id: paymentId }, select: { amount: true } });
  const updated = await client.payment.updateMany({
    where: { id: paymentId, status: { in: ["PENDING", "DECLINED", "FAILED"] } },
    data: {
      status: payment.amount === 0n ? "TOKENIZED" : "AUTHORIZED",
      processor: attempt.processor,
      acquirerAccountId: attempt.acquirerAccountId,
      authorizedAmount: payment.amount,
      ...(attempt.eci ? { eci: attempt.eci } : {}),
    },
  });
  return updated.count === 1;
}
