// One delivery attempt of a stored notification: sign, POST the stored JSON, wait at most the
// attempt's time-out, and record the attempt (time, status code, duration, error) for the back office.
// Only HTTP 200 acknowledges (spec 6.2 rule 1); redirects are not followed and count as failures.
import { db } from "../db";
import type { NotificationKind, NotificationStatus } from "../generated/prisma/enums";
import { postToMerchant } from "../egress/post-to-merchant";
import { newId } from "../ids";
import { observeNotificationAttempt } from "../observability/observe-notification-attempt";
import { DELIVERY_SCHEDULE } from "./delivery-schedule";
import { notificationKindHeader } from "./notification-kind-header";
import { signNotification } from "./sign-notification";

export interface DeliveryAttemptResult {
  delivered: boolean;
  /** Not attempted: an earlier notification of the same payment is still to be delivered (order of the state changes). */
  deferred?: boolean;
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

/**
 * The earliest notification of the same payment that was written before this one and is still to
 * be delivered (pending), with when its next attempt is due; undefined when none holds this one back.
 */
export async function earlierPendingNotification(notificationId: string): Promise<{ id: string; nextAttemptAt: Date | null } | undefined> {
  const [earlier] = await db().$queryRaw<{ id: string; nextAttemptAt: Date | null }[]>`
    SELECT e."id", e."nextAttemptAt" FROM "Notification" n
    JOIN "Notification" e ON e."paymentId" = n."paymentId" AND e."id" <> n."id"
      AND (e."createdAt" < n."createdAt" OR (e."createdAt" = n."createdAt" AND e."id" < n."id"))
    WHERE n."id" = ${notificationId} AND n."paymentId" IS NOT NULL AND e."status" = 'pending' AND e."kind" <> 'test'
    ORDER BY e."createdAt", e."id" LIMIT 1`;
  return earlier;
}

export async function deliverNotificationAttempt({
  notificationId,
  attemptNumber,
  timeoutMs,
}: DeliverNotificationAttemptOptions): Promise<DeliveryAttemptResult> {
  // Raw SQL here and for the record below: one attempt runs for every notification, and the ORM
  // made eight statements of it (two reads, a batch of two writes with their existence checks);
  // these are two (docs/performance.md, the worker's cost per capture).
  const [notification] = await db().$queryRaw<
    { id: string; kind: NotificationKind; url: string; body: string; status: NotificationStatus; notificationSecret: string }[]
  >`
    SELECT n."id", n."kind"::text AS "kind", n."url", n."body", n."status"::text AS "status", m."notificationSecret"
    FROM "Notification" n JOIN "Merchant" m ON m."id" = n."merchantId"
    WHERE n."id" = ${notificationId}`;
  if (!notification) throw new Error(`notification ${notificationId} does not exist`);
  // A repeated attempt after the notification was acknowledged (a retried step) sends nothing.
  if (notification.status === "delivered") return { delivered: true, statusCode: 200, error: null, durationMs: 0 };
  // The merchant learns a payment's state changes in the order they happened: a capture's result
  // never overtakes the completion that says the payment was made. Not an attempt: nothing is counted.
  if (await earlierPendingNotification(notificationId)) return { delivered: false, deferred: true, statusCode: null, error: null, durationMs: 0 };

  const limitMs = timeoutMs ?? DELIVERY_SCHEDULE[attemptNumber - 1]?.timeoutMs ?? 15_000;
  const startedAt = new Date();
  const headers = signNotification({
    secret: notification.notificationSecret,
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

  const status: NotificationStatus = delivered ? "delivered" : isLast ? "failed" : "pending";
  // The attempt and the notification's new state in one statement (atomic on its own). A repeated
  // attempt number (a retried step) overwrites its row, as the ORM's upsert did.
  await db().$executeRaw`
    WITH "attempt" AS (
      INSERT INTO "NotificationAttempt" ("id", "notificationId", "attemptNumber", "startedAt", "durationMs", "statusCode", "error", "responseBody")
      VALUES (${newId()}, ${notificationId}, ${attemptNumber}, ${startedAt}, ${durationMs}, ${statusCode}, ${error}, ${responseBody})
      ON CONFLICT ("notificationId", "attemptNumber") DO UPDATE SET
        "startedAt" = EXCLUDED."startedAt", "durationMs" = EXCLUDED."durationMs", "statusCode" = EXCLUDED."statusCode",
        "error" = EXCLUDED."error", "responseBody" = EXCLUDED."responseBody"
      RETURNING 1
    )
    UPDATE "Notification" SET
      "attemptCount" = ${attemptNumber},
      "status" = ${status}::"NotificationStatus",
      "deliveredAt" = ${delivered ? new Date() : null},
      "nextAttemptAt" = ${delivered || isLast || !next ? null : new Date(Date.now() + next.delayMs)}
    -- A delivered notification stays delivered: a slower attempt that failed (a retried step
    -- racing the one that got the 200) records its row but never changes the state back.
    WHERE "id" = ${notificationId} AND "status" <> 'delivered' AND EXISTS (SELECT 1 FROM "attempt")`;
  observeNotificationAttempt({ notificationId, attemptNumber, delivered, statusCode, error, durationMs });
  return { delivered, statusCode, error, durationMs };
}
