// After a capture, refund or void has its answer: the notification of spec 6.4 to the address
// stored on the operation when the request was accepted (the request's notificationurl, else the
// hosted integration's or the merchant's default address).
import { db, type Tx } from "../db";
import { operationNotificationBody, type OperationOutcome } from "../notifications/bodies";
import { enqueueNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { FOLLOW_UP_KINDS, isFollowUpType } from "./follow-ups/kinds";

/**
 * Stores the notification and returns its id (dispatch it after the commit), or null when there is
 * no address. Given `tx`, the row is written in the caller's transaction: the one that records the
 * result (lib/payments/record-follow-up-result.ts), so the result and its notification commit together.
 */
export async function notifyOperationResult({ operationId, tx: outer }: { operationId: string; tx?: Tx }): Promise<string | null> {
  const store = async (tx: Tx): Promise<string | null> => {
    const id = `msg_operation_${operationId}`;
    if (await tx.notification.findUnique({ where: { id }, select: { id: true } })) return id;
    const operation = await tx.operation.findUniqueOrThrow({
      where: { id: operationId },
      select: {
        type: true,
        status: true,
        responseCode: true,
        authorizationCode: true,
        responseId: true,
        notificationUrl: true,
        payment: {
          select: { id: true, merchantId: true, mode: true, merchantPaymentId: true, session: { select: { hostedIntegrationId: true } } },
        },
      },
    });
    // Still pending (its outcome unknown): the reconciliation notifies the settled result, once.
    if (operation.status === "pending") return null;
    // No request was answered for it (the void instantcapture 1 makes after a failed capture): the
    // window's completion reports the payment, and a 6.4 body of our own void would read as an
    // approval of the payment (decision 0156).
    if (!operation.responseId) return null;
    const payment = operation.payment;
    // Operations accepted before the address was stored on them resolve it now.
    const url =
      operation.notificationUrl ??
      (await resolveNotificationUrl({
        merchantId: payment.merchantId,
        mode: payment.mode,
        hostedIntegrationId: payment.session?.hostedIntegrationId,
        purpose: "default",
        tx,
      }));
    if (!url) return null;
    const status: OperationOutcome = operation.status === "approved" ? "approved" : operation.status === "declined" ? "declined" : "failed";
    const body = operationNotificationBody({
      responseId: operation.responseId,
      paymentId: payment.id,
      merchantPaymentId: payment.merchantPaymentId,
      responseCode: operation.responseCode ?? "",
      authorizationCode: operation.authorizationCode,
      status,
    });
    // The notification's kind is the operation's: a follow-up's (./follow-ups/kinds.ts) or payout (its X-CPS-Notification-Kind header).
    const kind = isFollowUpType(operation.type) ? FOLLOW_UP_KINDS[operation.type].notificationKind : operation.type === "payout" ? "payout" : "operation";
    return enqueueNotification({ id, merchantId: payment.merchantId, mode: payment.mode, paymentId: payment.id, kind, url, body, tx });
  };
  if (outer) return store(outer);
  // Usually stored already, in the transaction that recorded the result: one read then, instead
  // of a transaction around the same read.
  const id = `msg_operation_${operationId}`;
  if (await db().notification.findUnique({ where: { id }, select: { id: true } })) return id;
  return db().$transaction(store);
}
