// One delivery attempt of a stored notification: sign, POST the stored JSON, wait at most the
// attempt's time-out, and record the attempt (time, status code, duration, error) for the back office.
// Only HTTP 200 acknowledges (spec 6.2 rule 1); redirects are not followed and count as failures.
import { db } from "../db";
import { postToMerchant } from "../egress/post-to-merchant";
import { newId } from "../ids";
import { observeNotificationAttempt } from "../observability/observe-notification-attempt";
import { DELIVERY_SCHEDULE } from "./delivery-schedule";
import { notificationKindHeader } from "./notification-kind-header";
import { signNotification } from "./sign-notification";

export interface DeliveryAttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliverNotificationAttemptOptions {
  notificationId: string;
  attemptNumber: number;
  /** Defaults to the schedule's time-out for this attempt. */
  timeoutMs?: number;
}

export async function deliverNotificationAttempt({
  notificationId,
  attemptNumber,
  timeoutMs,
}: DeliverNotificationAttemptOptions): Promise<DeliveryAttemptResult> {
  const notification = await db().notification.findUniqueOrThrow({
    where: { id: notificationId },
    select: { id: true, kind: true, url: true, body: true, status: true, merchant: { select: { notificationSecret: true } } },
  });
  // A repeated attempt after the notification was acknowledged (a retried step) sends nothing.
  if (notification.status === "delivered") return { delivered: true, statusCode: 200, error: null, durationMs: 0 };

  const limitMs = timeoutMs ?? DELIVERY_SCHEDULE[attemptNumber - 1]?.timeoutMs ?? 15_000;
  const startedAt = new Date();
  const headers = signNotification({
    secret: notification.merchant.notificationSecret,
    id: notification.id,
    body: notification.body,
    now: startedAt,
  });
  // Checked destination, no redirects, at most the kept excerpt read (lib/egress/post-to-merchant.ts).
  const answer = await postToMerchant({
    url: notification.url,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "card-payment-service-notifications/1",
      ...notificationKindHeader(notification.kind),
      ...headers,
    },
    body: notification.body,
    timeoutMs: limitMs,
  });
  const { statusCode, responseExcerpt: responseBody } = answer;
  const error = answer.error ?? (statusCode !== 200 ? `answered HTTP ${statusCode}; only 200 acknowledges` : null);
  const durationMs = Date.now() - startedAt.getTime();
  const delivered = statusCode === 200;
  const isLast = attemptNumber >= DELIVERY_SCHEDULE.length;
  const next = DELIVERY_SCHEDULE[attemptNumber];

  await db().$transaction([
    db().notificationAttempt.upsert({
      where: { notificationId_attemptNumber: { notificationId, attemptNumber } },
      create: { id: newId(), notificationId, attemptNumber, startedAt, durationMs, statusCode, error, responseBody },
      update: { startedAt, durationMs, statusCode, error, responseBody },
    }),
    db().notification.update({
      where: { id: notificationId },
      data: {
        attemptCount: attemptNumber,
        status: delivered ? "delivered" : isLast ? "failed" : "pending",
        deliveredAt: delivered ? new Date() : null,
        nextAttemptAt: delivered || isLast || !next ? null : new Date(Date.now() + next.delayMs),
      },
    }),
  ]);
  observeNotificationAttempt({ notificationId, attemptNumber, delivered, statusCode, error, durationMs });
  return { delivered, statusCode, error, durationMs };
}
