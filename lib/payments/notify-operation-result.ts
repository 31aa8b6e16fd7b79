// After a capture, refund or void has its answer: the notification of spec 6.4 to the address
// stored on the operation when the request was accepted (the request's notificationurl, else the
// hosted integration's or the merchant's default address).
import { db, type Tx } from "../db";
import { operationNotificationBody, type OperationOutcome } from "../notifications/bodies";
import { enqueueNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { FOLLOW_UP_KINDS, isFollowUpType } from "./follow-ups/kinds";
import type { Mode } from "../mode";
import type { NotificationKind } from "../generated/prisma/enums";

/** What the notification of one answered operation is made of (all of it stored on the operation and its payment). */
export interface OperationNotificationFacts {
  operationId: string;
  type: string;
  status: string;
  responseCode: string | null;
  authorizationCode: string | null;
  responseId: string | null;
  url: string;
  payment: { id: string; merchantId: string; mode: Mode; merchantPaymentId: string | null };
}

export interface OperationNotification {
  id: string;
  kind: NotificationKind;
  url: string;
  /** The spec's body (enqueueNotification adds `mode`). */
  body: object;
}

/**
 * The notification of spec 6.4 for an answered operation, from facts its caller already read, or
 * null when nothing is to be sent. Its id derives from the operation's: at most one per operation.
 */
export function operationNotification(facts: OperationNotificationFacts): OperationNotification | null {
  if (!isNotified(facts)) return null;
  const status: OperationOutcome = facts.status === "approved" ? "approved" : facts.status === "declined" ? "declined" : "failed";
  const body = operationNotificationBody({
    responseId: facts.responseId,
    paymentId: facts.payment.id,
    merchantPaymentId: facts.payment.merchantPaymentId,
    responseCode: facts.responseCode ?? "",
    authorizationCode: facts.authorizationCode,
    status,
  });
  // The notification's kind is the operation's: a follow-up's (./follow-ups/kinds.ts) or payout (its X-CPS-Notification-Kind header).
  const kind = isFollowUpType(facts.type) ? FOLLOW_UP_KINDS[facts.type].notificationKind : facts.type === "payout" ? "payout" : "operation";
  return { id: operationNotificationId(facts.operationId), kind, url: facts.url, body };
}

/**
 * Writes operationNotification's row in the caller's transaction and returns its id, or null when
 * nothing is to be sent. A row of that id already stored is kept as it is.
 */
export async function storeOperationNotification(tx: Tx, facts: OperationNotificationFacts): Promise<string | null> {
  const notification = operationNotification(facts);
  if (!notification) return null;
  const { merchantId, mode, id: paymentId } = facts.payment;
  return enqueueNotification({ ...notification, merchantId, mode, paymentId, tx, ifAbsent: true });
}

/** Whether an operation in this state is reported by a notification of its own. */
function isNotified<T extends { status: string; responseId: string | null }>(operation: T): operation is T & { responseId: string } {
  // Still pending (its outcome unknown): the reconciliation notifies the settled result, once.
  // No request was answered for it (the void instantcapture 1 makes after a failed capture): the
  // window's completion reports the payment, and a 6.4 body of our own void would read as an
  // approval of the payment (decision 0156).
  return operation.status !== "pending" && operation.responseId !== null;
}

export function operationNotificationId(operationId: string): string {
  return `msg_operation_${operationId}`;
}

/**
 * Stores the notification and returns its id (dispatch it after the commit), or null when there is
 * no address. Given `tx`, the row is written in the caller's transaction: the one that records the
 * result (lib/payments/record-follow-up-result.ts), so the result and its notification commit together.
 */
export async function notifyOperationResult({ operationId, tx: outer }: { operationId: string; tx?: Tx }): Promise<string | null> {
  const store = async (tx: Tx): Promise<string | null> => {
    const id = operationNotificationId(operationId);
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
    // Nothing to send: the address is not looked up.
    if (!isNotified(operation)) return null;
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
    return storeOperationNotification(tx, { operationId, ...operation, url, payment });
  };
  if (outer) return store(outer);
  // Usually stored already, in the transaction that recorded the result: one read then, instead
  // of a transaction around the same read.
  const id = operationNotificationId(operationId);
  if (await db().notification.findUnique({ where: { id }, select: { id: true } })) return id;
  return db().$transaction(store);
}
