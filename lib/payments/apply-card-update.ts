// Life cycle management (spec 4.10, 6.6): a processor's card-update feed reports that the issuer
// changed the card behind stored payments (new expiry, new number, or closed). The stored card is
// updated and the merchant gets the life-cycle notification (paymentid, merchantpaymentid) for each
// stored payment on that card, at its configured life-cycle address.
import { sealedCardNumber } from "../cards/stored-card";
import { db } from "../db";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { enqueueLifecycleNotifications } from "./enqueue-lifecycle-notifications";
import type { CardUpdate } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";

export interface ApplyCardUpdateOptions {
  processor: AcquirerName;
  /** The account whose feed reported it: only that account's payments (one merchant's) are touched. */
  acquirerAccountId: string;
  update: CardUpdate;
}

/** Returns the ids of the notifications sent (none when no stored payment has that card). */
export async function applyCardUpdate({ processor, acquirerAccountId, update }: ApplyCardUpdateOptions): Promise<string[]> {
  // The stored payments the merchant refers to later: the first payment of each card (no parent)
  // that went through this account. MIT children of the series are not notified one by one.
  const payments = await db().payment.findMany({
    where: { acquirerAccountId, parentPaymentId: null, storedCard: { par: update.par } },
    select: {
      id: true,
      merchantId: true,
      mode: true,
      merchantPaymentId: true,
      storedCardId: true,
      session: { select: { hostedIntegrationId: true } },
    },
  });
  const storedCardIds = [...new Set(payments.map((payment) => payment.storedCardId).filter((id): id is string => Boolean(id)))];
  const ids = await db().$transaction(async (tx) => {
    if (update.kind === "expiry" && update.newExpMonth && update.newExpYear) {
      await tx.storedCard.updateMany({
        where: { id: { in: storedCardIds } },
        data: { expMonth: update.newExpMonth, expYear: update.newExpYear },
      });
    }
    if (update.kind === "pan" && update.newCard) {
      await tx.storedCard.updateMany({
        where: { id: { in: storedCardIds } },
        data: {
          ...sealedCardNumber(update.newCard),
          bin: update.newCard.bin,
          last4: update.newCard.last4,
          expMonth: update.newCard.expMonth,
          expYear: update.newCard.expYear,
        },
      });
    }
    return enqueueLifecycleNotifications({
      tx,
      payments,
      change: update.kind,
      idOf: (paymentId) => `msg_lifecycle_${processor}_${update.updateId}_${paymentId}`,
    });
  });
  for (const id of ids) await dispatchNotification(id);
  return ids;
}
