// The outbox: a notification is a stored row (its exact JSON text, so every attempt sends the same
// bytes) written in the transaction of the state change it reports, and an event that starts its
// delivery function (lib/jobs/deliver-notification.ts), sent after the commit. A send lost between
// the commit and the event (a crash, a failed send) is made good by the stalled-work job
// (lib/payments/resend-stalled-events.ts), which finds the row still undelivered.
import { db, type Tx } from "../db";
import type { NotificationKind } from "../generated/prisma/enums";
import { newId } from "../ids";
import { notificationCreated } from "../inngest/events/merchant-api";
import { sendEventAfterCommit } from "../inngest/send-event";
import { deliverNotificationAttempt } from "./deliver-notification-attempt";
import type { Mode } from "../mode";

export interface EnqueueNotificationOptions {
  /** A deterministic id when the caller must send at most one (default: a new one). */
  id?: string;
  merchantId: string;
  /** The mode of what it reports: stored, added to the body as `mode` and sent in a header. */
  mode: Mode;
  paymentId?: string | null;
  kind: NotificationKind;
  url: string;
  /** The spec's body; `mode` is added to it (a documented extension, docs/decisions.md). */
  body: object;
  tx?: Tx;
}

export async function enqueueNotification({
  id = `msg_${newId()}`,
  merchantId,
  mode,
  paymentId,
  kind,
  url,
  body,
  tx,
}: EnqueueNotificationOptions): Promise<string> {
  await (tx ?? db()).notification.create({
    data: { id, merchantId, mode, paymentId: paymentId ?? null, kind, url, body: JSON.stringify({ ...body, mode }), nextAttemptAt: new Date() },
    select: { id: true },
  });
  return id;
}

/** Starts delivery of a stored notification (its first attempt is immediate). */
export async function dispatchNotification(notificationId: string): Promise<void> {
  await sendEventAfterCommit({ type: notificationCreated, data: { notificationId }, id: `notification-${notificationId}` });
}

/**
 * Makes the immediate attempt here and now, and hands the notification to the delivery function
 * for the rest of the schedule only when that attempt was not acknowledged. Background functions
 * use it to save the executor hop of a separate run (the result reaches the merchant sooner).
 */
export async function deliverNowOrSchedule(notificationId: string): Promise<boolean> {
  const first = await deliverNotificationAttempt({ notificationId, attemptNumber: 1 });
  if (!first.delivered) {
    // Held back behind an earlier notification of the payment: the function makes the first attempt when its turn comes.
    await sendEventAfterCommit({
      type: notificationCreated,
      data: first.deferred ? { notificationId } : { notificationId, fromAttempt: 2 },
      id: `notification-${notificationId}`,
    });
  }
  return first.delivered;
}
