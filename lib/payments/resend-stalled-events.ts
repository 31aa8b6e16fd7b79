// The state change and its event are not one transaction (the event goes to Inngest after the
// commit), so an event can be lost when sending fails after the commit. This re-sends the events
// of work that should have started by now: pending captures/refunds/voids and notifications never
// attempted. Resending is harmless: the event ids are deterministic and an id Inngest has seen
// before starts nothing.
import { db } from "../db";
import { followUpRequested, notificationCreated } from "../inngest/events/merchant-api";
import { sendEvent } from "../inngest/send-event";

/** Work younger than this is left alone: its own event is normally on its way. */
export const STALLED_AFTER_MS = 60_000;

export async function resendStalledEvents({ now = new Date(), limit = 200 }: { now?: Date; limit?: number } = {}): Promise<{
  operationIds: string[];
  notificationIds: string[];
}> {
  const before = new Date(now.getTime() - STALLED_AFTER_MS);
  const operations = await db().operation.findMany({
    where: { status: "pending", type: { in: ["capture", "refund", "void"] }, createdAt: { lt: before } },
    select: { id: true },
    take: limit,
  });
  for (const { id } of operations) {
    // The request's notificationurl travelled in the lost event; the configured address is used instead.
    await sendEvent({ type: followUpRequested, data: { operationId: id, notificationUrl: null }, id: `follow-up-${id}` });
  }
  const notifications = await db().notification.findMany({
    where: { status: "pending", attemptCount: 0, createdAt: { lt: before } },
    select: { id: true },
    take: limit,
  });
  for (const { id } of notifications) {
    await sendEvent({ type: notificationCreated, data: { notificationId: id }, id: `notification-${id}` });
  }
  return { operationIds: operations.map(({ id }) => id), notificationIds: notifications.map(({ id }) => id) };
}
