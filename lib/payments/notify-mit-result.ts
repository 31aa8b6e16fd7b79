// After a merchant-initiated authorization: the notification of spec 6.3, to the address stored on
// the payment when the request was accepted.
import { db, type Tx } from "../db";
import { mitNotificationBody } from "../notifications/bodies";
import { enqueueNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";

export interface MitOutcome {
  status: "approved" | "declined" | "failed";
  processor?: string;
  responsecode: string;
  authorizationcode?: string;
  eci?: string;
  par?: string;
}

export async function notifyMitResult({
  paymentId,
  responseId,
  outcome,
  tx: outer,
}: {
  paymentId: string;
  responseId: string;
  outcome: MitOutcome;
  /** The transaction that records the authorization's outcome: the row commits with it. */
  tx?: Tx;
}): Promise<string | null> {
  const store = async (tx: Tx): Promise<string | null> => {
    const id = `msg_mit_${paymentId}`;
    if (await tx.notification.findUnique({ where: { id }, select: { id: true } })) return id;
    const payment = await tx.payment.findUniqueOrThrow({
      where: { id: paymentId },
      select: { merchantId: true, mode: true, merchantPaymentId: true, notificationUrl: true, storedCard: { select: { par: true } } },
    });
    // Stored when the request was accepted; payments from before that resolve it now.
    const url =
      payment.notificationUrl ?? (await resolveNotificationUrl({ merchantId: payment.merchantId, mode: payment.mode, purpose: "default", tx }));
    if (!url) return null;
    const body = mitNotificationBody({
      responseId,
      paymentId,
      newMerchantPaymentId: payment.merchantPaymentId,
      responseCode: outcome.responsecode,
      authorizationCode: outcome.authorizationcode ?? null,
      status: outcome.status,
      processor: outcome.processor ?? null,
      eci: outcome.eci ?? null,
      par: outcome.par ?? payment.storedCard?.par ?? null,
    });
    return enqueueNotification({ id, merchantId: payment.merchantId, mode: payment.mode, paymentId, kind: "mit", url, body, tx });
  };
  return outer ? store(outer) : db().$transaction(store);
}
