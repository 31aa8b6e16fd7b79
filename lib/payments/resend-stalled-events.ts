// The state change and its event are not one transaction (the event goes to Inngest after the
// commit), so an event is lost when the process dies or the send fails between the two. This
// re-sends the events of work that should have started by now: pending captures/refunds/voids,
// merchant-initiated payments never authorized, and notifications never attempted (the outbox
// rows). Events carry ids only and everything else (the notification address included) is read
// from the rows, so a re-sent event does exactly what the lost one would have. Resending is
// harmless: the event ids are deterministic and an id Inngest has seen before starts nothing.
// Run by the cron job lib/jobs/resend-stalled-events.ts.
import { db } from "../db";
import { followUpRequested, mitRequested, notificationCreated } from "../inngest/events/merchant-api";
import { sendEvent } from "../inngest/send-event";

/** Work younger than this is left alone: its own event is normally on its way. */
export const STALLED_AFTER_MS = 60_000;

export async function resendStalledEvents({ now = new Date(), limit = 200 }: { now?: Date; limit?: number } = {}): Promise<{
  operationIds: string[];
  mitPaymentIds: string[];
  notificationIds: string[];
}> {
  const before = new Date(now.getTime() - STALLED_AFTER_MS);
  const operations = await db().operation.findMany({
    where: { status: "pending", type: { in: ["capture", "refund", "void"] }, createdAt: { lt: before } },
    select: { id: true },
    take: limit,
  });
  for (const { id } of operations) {
    await sendEvent({ type: followUpRequested, data: { operationId: id }, id: `follow-up-${id}` });
  }
  const mits = await db().payment.findMany({
    where: { status: "PENDING", requestResponseId: { not: null }, operations: { none: {} }, createdAt: { lt: before } },
    select: { id: true, requestResponseId: true },
    take: limit,
  });
  for (const { id, requestResponseId } of mits) {
    await sendEvent({ type: mitRequested, data: { paymentId: id, responseId: requestResponseId! }, id: `mit-${id}` });
  }
  // Outbox rows whose delivery never started (attemptCount 0), or whose immediate attempt failed
  // and whose next attempt is long overdue (the hand-over to the delivery function was lost).
  const notifications = await db().notification.findMany({
    where: {
      status: "pending",
      kind: { not: "test" }, // a back-office test is one attempt, settled on the spot
      OR: [
        { attemptCount: 0, createdAt: { lt: before } },
        { attemptCount: { gt: 0 }, nextAttemptAt: { lt: before } },
      ],
    },
    select: { id: true, attemptCount: true },
    take: limit,
  });
  for (const { id, attemptCount } of notifications) {
    const data = attemptCount > 0 ? { notificationId: id, fromAttempt: attemptCount + 1 } : { notificationId: id };
    await sendEvent({ type: notificationCreated, data, id: `notification-${id}` });
  }
  return {
    operationIds: operations.map(({ id }) => id),
    mitPaymentIds: mits.map(({ id }) => id),
    notificationIds: notifications.map(({ id }) => id),
  };
}
