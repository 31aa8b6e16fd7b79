// The completion notification of a cardholder-initiated payment (spec 6.2), sent when the payment
// completes or its window times out. Called by the cardholder flow after goPay() ends and by the
// session expiry sweeper; sent at most once per session.
import { db, type Tx } from "../db";
import type { PaymentStatus } from "../generated/prisma/enums";
import { completionNotificationBody, type CompletionStatus } from "./bodies";
import { dispatchNotification, enqueueNotification } from "./enqueue-notification";
import { resolveNotificationUrl } from "./resolve-notification-url";
import { log } from "../observability/logger";

export interface SendCompletionNotificationOptions {
  sessionId: string;
  /** Defaults to what the session and its payment say. */
  status?: CompletionStatus;
}

/** One completion notification per session: its id is derived from the session's. */
export function completionNotificationId(sessionId: string): string {
  return `msg_completion_${sessionId}`;
}

function statusOf(sessionStatus: string, paymentStatus: PaymentStatus | undefined): CompletionStatus {
  if (sessionStatus === "TIMED_OUT") return "timeout";
  if (paymentStatus && ["AUTHORIZED", "CAPTURED", "REFUNDED", "TOKENIZED"].includes(paymentStatus)) return "approved";
  if (paymentStatus === "DECLINED") return "declined";
  if (paymentStatus === "TIMED_OUT") return "timeout";
  return "failed";
}

/** Returns the notification id, or null when no address is configured or it was already sent. */
export async function sendCompletionNotification({ sessionId, status }: SendCompletionNotificationOptions): Promise<string | null> {
  const notificationId = await db().$transaction(async (tx) => {
    // The session row lock makes "at most once" hold between the flow and the time-out sweeper.
    await tx.$queryRaw`SELECT "id" FROM "PaymentSession" WHERE "id" = ${sessionId} FOR UPDATE`;
    return storeCompletionNotification({ tx, sessionId, status });
  });
  if (notificationId) await dispatchNotification(notificationId);
  return notificationId;
}

/**
 * Stores the completion notification in the caller's transaction (which holds the session's row
 * lock); the caller dispatches it after the commit.
 */
export async function storeCompletionNotification({
  tx,
  sessionId,
  status,
}: SendCompletionNotificationOptions & { tx: Tx }): Promise<string | null> {
  const session = await tx.paymentSession.findUniqueOrThrow({
    where: { id: sessionId },
    select: {
      id: true,
      merchantId: true,
      mode: true,
      status: true,
      merchantPaymentId: true,
      newMerchantPaymentId: true,
      notificationUrl: true,
      hostedIntegrationId: true,
      merchantData: true,
      paymentId: true,
      payment: {
        select: {
          id: true,
          status: true,
          processor: true,
          eci: true,
          storedCard: { select: { bin: true, last4: true, par: true } },
          // The authorization attempts, and the instant capture (it carries the session's id).
          operations: {
            where: { OR: [{ type: "authorize" }, { type: "capture", responseId: sessionId }] },
            orderBy: { createdAt: "asc" },
            select: { type: true, status: true, processor: true, responseCode: true, authorizationCode: true, eci: true },
          },
        },
      },
    },
  });
  const id = completionNotificationId(session.id);
  if (await tx.notification.findUnique({ where: { id }, select: { id: true } })) return null;
  const url = await resolveNotificationUrl({
    merchantId: session.merchantId,
    mode: session.mode,
    requestedUrl: session.notificationUrl,
    hostedIntegrationId: session.hostedIntegrationId,
    purpose: "completion",
    tx,
  });
  if (!url) {
    log("notifications").warn(`no completion address configured for merchant ${session.merchantId}; session ${session.id} not notified`);
    return null;
  }
  const payment = session.payment;
  const operations = (payment?.operations ?? []).filter((operation) => operation.type === "authorize");
  const completionStatus = status ?? statusOf(session.status, payment?.status);
  // A timeout never carries an approval's code: an approval that came too late is voided, and is
  // not what the window ended with (the last attempt that was not approved is).
  const authorization =
    completionStatus === "timeout"
      ? operations.filter((operation) => operation.status !== "approved").at(-1)
      : (operations.find((operation) => operation.status === "approved") ?? operations.at(-1));
  let outcome = {
    status: completionStatus,
    responseCode: authorization?.responseCode ?? null,
    authorizationCode: authorization?.authorizationCode ?? null,
  };
  // instantcapture 1 whose capture failed (its authorization then voided): the payment failed with
  // the capture's answer. No authorization code: no authorization stands (decision 0156).
  const instantCapture = payment?.operations.find((operation) => operation.type === "capture");
  if (outcome.status === "failed" && (instantCapture?.status === "declined" || instantCapture?.status === "failed")) {
    outcome = { status: instantCapture.status, responseCode: instantCapture.responseCode, authorizationCode: null };
  }
  const body = completionNotificationBody({
    sessionId: session.id,
    paymentId: payment?.id ?? null,
    merchantPaymentId: session.merchantPaymentId,
    newMerchantPaymentId: session.newMerchantPaymentId,
    ...outcome,
    processor: authorization?.processor ?? payment?.processor ?? null,
    card: payment?.storedCard ?? null,
    eci: authorization?.eci ?? payment?.eci ?? null,
    merchantData: session.merchantData,
  });
  return enqueueNotification({
    id,
    merchantId: session.merchantId,
    mode: session.mode,
    paymentId: payment?.id ?? null,
    kind: "completion",
    url,
    body,
    tx,
  });
}
