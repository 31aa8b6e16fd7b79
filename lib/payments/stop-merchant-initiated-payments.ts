// A stop-recurring answer (the cardholder's stop order: Clearhaus 40420 "merchant blocked by
// cardholder: halt all future merchant-initiated-transactions on this card from this merchant",
// Visa's R0/R1/R3) marks the stored card: no merchant-initiated payment is sent for it again
// (lib/payments/check-mit-parent.ts refuses the next /api/mit at once), and the merchant gets the
// life-cycle notification of spec 6.6 for each stored payment of that card, saying so
// (`change: mit_stopped`). Written in the transaction that records the payment's outcome (outbox);
// the caller dispatches the returned notifications after it commits. "Only after the blockade has
// been lifted, by actions taken by the cardholder, may transactions be resumed": a new cardholder
// payment stores the card again, as a new stored card with its own series (decision 0191).
import type { Tx } from "../db";
import { enqueueLifecycleNotifications } from "./enqueue-lifecycle-notifications";
import type { ProcessorResult } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";

export interface StopMerchantInitiatedPaymentsOptions {
  tx: Tx;
  storedCardId: string;
  /** The payment whose authorization got the answer. */
  paymentId: string;
  processor: AcquirerName;
  result: Pick<ProcessorResult, "responsecode" | "acquirerCode">;
  now?: Date;
}

/** Returns the ids of the life-cycle notifications written (none when the card was stopped already, or no address is set). */
export async function stopMerchantInitiatedPayments({
  tx,
  storedCardId,
  paymentId,
  processor,
  result,
  now = new Date(),
}: StopMerchantInitiatedPaymentsOptions): Promise<string[]> {
  const marked = await tx.storedCard.updateMany({
    where: { id: storedCardId, mitStoppedAt: null },
    data: {
      mitStoppedAt: now,
      mitStopProcessor: processor,
      mitStopResponseCode: result.responsecode,
      mitStopAcquirerCode: result.acquirerCode ?? null,
      mitStopPaymentId: paymentId,
    },
  });
  if (marked.count === 0) return [];
  // The stored payments the merchant names in /api/mit: the card's first payments (no parent), as for card updates.
  const payments = await tx.payment.findMany({
    where: { storedCardId, parentPaymentId: null },
    select: { id: true, merchantId: true, mode: true, merchantPaymentId: true, session: { select: { hostedIntegrationId: true } } },
  });
  return enqueueLifecycleNotifications({ tx, payments, change: "mit_stopped", idOf: (id) => `msg_lifecycle_stop_${storedCardId}_${id}` });
}

/** The stored card's stop-order fields, as a Prisma select: what mitStoppedReason and the back office read. */
export const MIT_STOP_SELECT = { mitStoppedAt: true, mitStopProcessor: true, mitStopResponseCode: true, mitStopAcquirerCode: true } as const;

/** What a stopped stored card says to a merchant who asks for an MIT on it (the errordescription's reason). */
export function mitStoppedReason(card: {
  mitStoppedAt: Date | null;
  mitStopProcessor: string | null;
  mitStopResponseCode: string | null;
  mitStopAcquirerCode: string | null;
}): string | undefined {
  if (!card.mitStoppedAt) return undefined;
  const own = card.mitStopAcquirerCode && card.mitStopAcquirerCode !== card.mitStopResponseCode ? ` (${card.mitStopAcquirerCode})` : "";
  return (
    `the cardholder stopped merchant-initiated payments on this card: ${card.mitStopProcessor ?? "the acquirer"} answered ` +
    `${card.mitStopResponseCode ?? "a stop order"}${own} on ${card.mitStoppedAt.toISOString().slice(0, 10)}; ` +
    "no MIT is sent for it (a new cardholder payment stores the card again)"
  );
}
