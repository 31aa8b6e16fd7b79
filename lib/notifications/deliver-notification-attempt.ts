// One delivery attempt of a stored notification: sign, POST the stored JSON, wait at most the
// attempt's time-out, and record the attempt (time, status code, duration, error) for the back office.
// Only HTTP 200 acknowledges (spec 6.2 rule 1); redirects are not followed and count as failures.
import { db } from "../db";
import { newId } from "../ids";
import { DELIVERY_SCHEDULE } from "./delivery-schedule";
import { signNotification } from "./sign-notification";

const RESPONSE_EXCERPT_CHARS = 512;

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

async function readExcerpt(response: Response): Promise<string | null> {
  try {
    const text = await response.text();
    return text.slice(0, RESPONSE_EXCERPT_CHARS);
  } catch {
    return null;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

export async function deliverNotificationAttempt({
  notificationId,
  attemptNumber,
  timeoutMs,
}: DeliverNotificationAttemptOptions): Promise<DeliveryAttemptResult> {
  const notification = await db().notification.findUniqueOrThrow({
    where: { id: notificationId },
    select: { id: true, url: true, body: true, status: true, merchant: { select: { notificationSecret: true } } },
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
  let statusCode: number | null = null;
  let error: string | null = null;
  let responseBody: string | null = null;
  try {
    const response = await fetch(notification.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "card-payment-service-notifications/1", ...headers },
      body: notification.body,
      redirect: "manual",
      signal: AbortSignal.timeout(limitMs),
    });
    statusCode = response.status;
    responseBody = await readExcerpt(response);
    if (statusCode !== 200) error = `answered HTTP ${statusCode}; only 200 acknowledges`;
  } catch (failure) {
    error = describeFailure(failure, limitMs);
  }
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
  return { delivered, statusCode, error, durationMs };
}
