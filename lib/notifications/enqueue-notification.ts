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
import { deliverNotificationAttempt, type NotificationForAttempt } from "./deliver-notification-attempt";
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
  /**
   * The spec's body; `mode` is added to it (a documented extension,
   * docs/decisions/0108-test-mode-and-live-mode.md).
   */
  body: object;
  tx?: Tx;
  /**
   * A row of this id already stored is kept as it is and no copy is made (a deterministic id whose
   * caller did not read first). Without it such a row fails the insert.
   */
  ifAbsent?: boolean;
}

/** A notification's stored text: the spec's body with `mode` added, the bytes every attempt sends. */
export function notificationText(body: object, mode: Mode): string {
  return JSON.stringify({ ...body, mode });
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
  ifAbsent = false,
}: EnqueueNotificationOptions): Promise<string> {
  // The notification and, in the same statement, a copy for each enabled webhook endpoint of its
  // merchant and mode subscribed to its kind: cps_enqueue_notification, the only definition
  // (prisma/migrations/20261129120000_record_follow_up_in_one_round_trip; a follow-up's record
  // stores its notification with it in the same round trip).
  await (tx ?? db()).$executeRaw`
    SELECT "cps_enqueue_notification"(${id}, ${merchantId}, ${mode}::"Mode", ${paymentId ?? null}, ${kind}::"NotificationKind",
      ${url}, ${notificationText(body, mode)}, ${new Date()}::timestamp(3), ${ifAbsent})`;
  return id;
}

/** The webhook endpoints' copies of a notification not yet attempted (their delivery starts with it). */
async function copiesToStart(notificationId: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Notification" WHERE "copyOfId" = ${notificationId} AND "attemptCount" = 0 AND "status"::text = 'pending'`;
  return rows.map((row) => row.id);
}

async function startCopies(copyIds: string[]): Promise<void> {
  for (const copyId of copyIds) {
    await sendEventAfterCommit({ type: notificationCreated, data: { notificationId: copyId }, id: `notification-${copyId}` });
  }
}

async function dispatchCopies(notificationId: string): Promise<void> {
  await startCopies(await copiesToStart(notificationId));
}

/** Starts delivery of a stored notification (its first attempt is immediate). */
export async function dispatchNotification(notificationId: string): Promise<void> {
  await sendEventAfterCommit({ type: notificationCreated, data: { notificationId }, id: `notification-${notificationId}` });
  await dispatchCopies(notificationId);
}

/**
 * Makes the immediate attempt here and now; when it was not acknowledged, its record hands the
 * second attempt to the delivery function (an event due 3 s after it ended, decision 0223).
 * Background functions use it to save the executor hop of a separate run (the result reaches the
 * merchant sooner).
 */
export async function deliverNowOrSchedule(notificationId: string, read?: NotificationForAttempt): Promise<boolean> {
  // The copies start before the attempt is sent, from the attempt's own read of the notification
  // (or the one the statement that stored it made, decision 0215). Held back by the ordering rule:
  // its release starts the delivery function when its turn comes.
  const first = await deliverNotificationAttempt({ notificationId, attemptNumber: 1, startCopies, schedule: true, ...(read ? { read } : {}) });
  return first.delivered;
}
