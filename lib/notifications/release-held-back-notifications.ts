// Starts the delivery of a payment's notifications that were held back (lib/notifications/hold-back.ts)
// and are not any more: called when a notification of the payment is acknowledged (a scheduled
// attempt or a Resend) or gives up, in whatever process that happens, and by the stalled-work job
// as the net for a release that never ran. A held-back notification has no run waiting for it; its
// release is an event under a fresh id, so the executor of any process starts its next attempt at once.
import { db } from "../db";
import { notificationCreated } from "../inngest/events/merchant-api";
import { sendEventAfterCommit } from "../inngest/send-event";
import { HELD_BACK_N } from "./hold-back";

/** The event id of the release that ended a notification's `releases`-th hold. */
export function releaseEventId(notificationId: string, releases: number): string {
  return `notification-${notificationId}-release-${releases}`;
}

/** Returns the ids released. */
export async function releaseHeldBackNotifications({ paymentId, now = new Date() }: { paymentId: string; now?: Date }): Promise<string[]> {
  // One statement: a row released by two callers at once is updated by one (the other, waiting on
  // the row lock, finds heldBackAt cleared), so it gets one event.
  const released = await db().$queryRaw<{ id: string; attemptCount: number; releases: number }[]>`
    UPDATE "Notification" n SET "heldBackAt" = NULL, "releases" = n."releases" + 1, "nextAttemptAt" = ${now}
    WHERE n."paymentId" = ${paymentId} AND n."heldBackAt" IS NOT NULL AND n."status"::text = 'pending' AND NOT ${HELD_BACK_N}
    RETURNING n."id", n."attemptCount", n."releases"`;
  released.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const row of released) {
    await sendEventAfterCommit({
      type: notificationCreated,
      // Its wait before the attempt was served before it was held back: the attempt goes at once.
      data: { notificationId: row.id, fromAttempt: row.attemptCount + 1, immediately: true },
      id: releaseEventId(row.id, row.releases),
    });
  }
  return released.map((row) => row.id);
}
