// The capture a refund gives back, for acquirers whose refund names one capture (Finaro: g2/g3/g4 of
// the capture; docs/acquirers.md): the latest approved capture that still holds the whole amount,
// counting what the other refunds naming it took back or may have (approved, or pending). Chosen in
// the transaction that claims the refund, under the payment's row lock, and written on the refund
// (`referencedOperationId`) before the lock is released: refunds run at the same moment therefore
// never count the same room twice (money review 4, N3). None when no single capture can take it:
// such a refund is refused before it is sent (refund per capture).
import type { Tx } from "../db";

export async function chooseRefundCapture({
  tx,
  paymentId,
  refundId,
  amount,
}: {
  tx: Tx;
  paymentId: string;
  refundId: string;
  amount: bigint;
}): Promise<string | undefined> {
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId }, select: { processor: true } });
  const [captures, refunds] = await Promise.all([
    tx.operation.findMany({
      where: { paymentId, type: "capture", status: "approved", processor: payment.processor, processorReference: { not: null } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, amount: true },
    }),
    tx.operation.findMany({
      where: { paymentId, type: "refund", status: { in: ["pending", "approved"] }, id: { not: refundId }, referencedOperationId: { not: null } },
      select: { amount: true, referencedOperationId: true },
    }),
  ]);
  const given = new Map<string, bigint>();
  for (const refund of refunds) given.set(refund.referencedOperationId!, (given.get(refund.referencedOperationId!) ?? 0n) + refund.amount);
  return captures.find((capture) => capture.amount - (given.get(capture.id) ?? 0n) >= amount)?.id;
}
