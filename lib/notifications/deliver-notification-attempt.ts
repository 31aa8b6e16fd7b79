// One delivery attempt of a stored notification: sign, POST the stored JSON, wait at most the
// attempt's time-out, and record the attempt (time, status code, duration, error) for the back office.
// Only HTTP 200 acknowledges (spec 6.2 rule 1); redirects are not followed and count as failures.
// A resend (the back office's "Resend") is one more attempt of the same notification: the same
// webhook-id and bytes, numbered after the schedule, sent even when it was delivered before. It
// does not move the schedule: acknowledged, the notification is delivered and the scheduled
// attempts still to come send nothing; refused, the schedule goes on as it was.
import { hotSql } from "../db";
import { notificationCreated } from "../inngest/events/merchant-api";
import { sendEventAfterCommit, sendEventIfWritten } from "../inngest/send-event";
import { textForPostgres } from "../db/postgres-text";
import { Prisma } from "../generated/prisma/client";
import type { NotificationKind, NotificationStatus } from "../generated/prisma/enums";
import { postToMerchant } from "../egress/post-to-merchant";
import { newId } from "../ids";
import { observeNotificationAttempt } from "../observability/observe-notification-attempt";
import { DELIVERY_SCHEDULE, attemptEventId } from "./delivery-schedule";
import { HELD_BACK_N, HELD_BACK_N_LOCKING } from "./hold-back";
import { notificationKindHeader } from "./notification-kind-header";
import { signNotification } from "./sign-notification";
import { releaseHeldBackNotifications } from "./release-held-back-notifications";
import { ensureSigningSecret, openSigningSecret } from "./signing-secrets";

export interface DeliveryAttemptResult {
  delivered: boolean;
  /** Not attempted: an earlier notification of the same payment is still to be delivered (order of the state changes). */
  deferred?: boolean;
  /** Not attempted: the notification made this scheduled attempt already (a replayed run); its schedule goes on. */
  repeated?: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliverNotificationAttemptOptions {
  notificationId: string;
  /** The scheduled attempt (1 to 8), or "resend" for an attempt outside the schedule. */
  attemptNumber: number | "resend";
  /** Defaults to the schedule's time-out for this attempt. */
  timeoutMs?: number;
  /**
   * Given, it receives the ids of the notification's webhook-endpoint copies not yet attempted,
   * read in the same statement as the notification, before anything is sent (their delivery
   * starts with the first attempt: lib/notifications/enqueue-notification.ts).
   */
  startCopies?: (copyIds: string[]) => Promise<void>;
  /**
   * The notification as the statement that stored it read it (a follow-up's record, decision 0215),
   * when the ordering rule could not hold it back there: the attempt reads nothing before it sends.
   */
  read?: NotificationForAttempt;
  /**
   * An attempt of the delivery schedule (the delivery function, deliverNowOrSchedule), each run of
   * which makes one attempt (decision 0223): a refused attempt that is not the last hands the next
   * one over, by an event stored in the statement that records it (its ts the next attempt's due
   * time); and an attempt the notification made already (a run replayed after a crash, a run of an
   * earlier version) is not sent again, the schedule goes on from where it is.
   */
  schedule?: boolean;
}

/** How long a resend waits for the receiver: the schedule's longest, as a person is waiting. */
const RESEND_TIMEOUT_MS = 15_000;

/** Reads after a hold that found nothing holding any more (what held it was released meanwhile). */
const MAX_READS = 3;

/**
 * Records that `n` is held back, when it still is (read with share locks on what holds it: a
 * release running now is waited for). False when nothing holds it back any more.
 */
async function recordHold(notificationId: string, now: Date): Promise<boolean> {
  const held = await hotSql().$queryRaw<{ id: string }[]>`
    UPDATE "Notification" n SET "heldBackAt" = COALESCE(n."heldBackAt", ${now}), "nextAttemptAt" = NULL
    WHERE n."id" = ${notificationId} AND n."status"::text = 'pending' AND ${HELD_BACK_N_LOCKING}
    RETURNING n."id"`;
  return held.length > 0;
}

/**
 * What one attempt needs of the notification: the database's cps_notification_for_attempt (its one
 * definition, prisma/migrations/20261130030000_follow_up_record_reads_first_attempt), and whether the
 * ordering rule holds it back now.
 */
export interface NotificationForAttempt {
  id: string;
  merchantId: string;
  mode: "test" | "live";
  kind: NotificationKind;
  url: string;
  body: string;
  status: NotificationStatus;
  endpointId: string | null;
  secrets: Array<{ id: string; sealed: string }>;
  heldBack: boolean;
  copies: string[];
  /** The scheduled attempts made so far (the schedule's position). */
  attemptCount: number;
}

async function readForAttempt(notificationId: string, now: Date, withCopies: boolean): Promise<NotificationForAttempt> {
  // Raw SQL here and for the record below: one attempt runs for every notification, and the ORM
  // made eight statements of it (two reads, a batch of two writes with their existence checks);
  // these are two (docs/performance.md, the worker's cost per capture), on the driver (hotSql,
  // decision 0214). The read also answers whether the notification is held back
  // (lib/notifications/hold-back.ts: the function's row is the rule's `n`) and, for the first
  // attempt, which copies to start: two statements fewer per capture (issue 29). A follow-up's
  // record hands its notification's first attempt this read when the rule cannot hold it back
  // (decision 0215): no statement at all then.
  const [notification] = await hotSql().$queryRaw<NotificationForAttempt[]>`
    SELECT n."id", n."merchantId", n."mode", n."kind", n."url", n."body", n."status", n."endpointId", n."secrets", n."copies",
      n."attemptCount", ${HELD_BACK_N} AS "heldBack"
    FROM "cps_notification_for_attempt"(${notificationId}, ${now}::timestamp(3), ${withCopies}) n`;
  if (!notification) throw new Error(`notification ${notificationId} does not exist`);
  return notification;
}

export async function deliverNotificationAttempt({
  notificationId,
  attemptNumber,
  timeoutMs,
  startCopies,
  read,
  schedule = false,
}: DeliverNotificationAttemptOptions): Promise<DeliveryAttemptResult> {
  if (read && read.id !== notificationId) throw new Error(`the read given is of notification ${read.id}, not ${notificationId}`);
  let notification = read ?? (await readForAttempt(notificationId, new Date(), startCopies !== undefined));
  if (startCopies) await startCopies(notification.copies);
  const resend = attemptNumber === "resend";
  // A repeated attempt after the notification was acknowledged (a retried step, or a scheduled
  // attempt after a successful resend) sends nothing.
  if (!resend && notification.status === "delivered") return { delivered: true, statusCode: 200, error: null, durationMs: 0 };
  // The merchant learns a payment's state changes in the order they happened: a capture's result
  // never overtakes the completion that says the payment was made. Held back, nothing is sent or
  // counted and the run ends: the release of what holds it back starts its delivery again. (A
  // resend is a person's explicit request and goes at once.)
  for (let read = 1; !resend && notification.heldBack; read++) {
    if (await recordHold(notificationId, new Date())) return { delivered: false, deferred: true, statusCode: null, error: null, durationMs: 0 };
    // Released between the read and the hold: read again (what released it may have written a
    // notification that comes first, such as a window's completion).
    if (read >= MAX_READS) break;
    notification = await readForAttempt(notificationId, new Date(), false);
    if (notification.status === "delivered") return { delivered: true, statusCode: 200, error: null, durationMs: 0 };
  }
  if (schedule && !resend && notification.attemptCount >= attemptNumber) return continueSchedule(notification);

  const limitMs = timeoutMs ?? (resend ? RESEND_TIMEOUT_MS : DELIVERY_SCHEDULE[attemptNumber - 1]?.timeoutMs) ?? 15_000;
  const startedAt = new Date();
  // Every secret still valid signs (a roll's overlap): one signature each in webhook-signature. A
  // webhook endpoint's copy is signed with that endpoint's secrets only, never the merchant's; every
  // notification with its own mode's secrets only, never the other mode's (security review 4, M1).
  // A merchant from before per-mode secrets has no test secret yet: it is made now.
  const secrets =
    notification.secrets.length === 0 && !notification.endpointId
      ? (await ensureSigningSecret({ merchantId: notification.merchantId, mode: notification.mode })).map((entry) => entry.secret)
      : await Promise.all(notification.secrets.map((row) => openSigningSecret({ ...row, merchantId: notification.merchantId })));
  const headers = signNotification({
    secret: secrets,
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
      ...notificationKindHeader(notification.kind, notification.mode),
      ...headers,
    },
    body: notification.body,
    timeoutMs: limitMs,
  });
  const { statusCode } = answer;
  // The receiver's words, kept as said except a NUL byte, which PostgreSQL cannot store (review 4, M3).
  const responseBody = textForPostgres(answer.responseExcerpt);
  const error = answer.error ?? (statusCode !== 200 ? `answered HTTP ${statusCode}; only 200 acknowledges` : null);
  const durationMs = Date.now() - startedAt.getTime();
  const delivered = statusCode === 200;
  if (resend) {
    await recordResendAttempt({ notificationId, startedAt, durationMs, statusCode, error, responseBody, delivered });
  } else {
    await recordScheduledAttempt({ notificationId, attemptNumber, startedAt, durationMs, statusCode, error, responseBody, delivered, handOver: schedule });
  }
  observeNotificationAttempt({ notificationId, mode: notification.mode, attemptNumber, delivered, statusCode, error, durationMs });
  return { delivered, statusCode, error, durationMs };
}

interface AttemptRecord {
  notificationId: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  delivered: boolean;
}

/**
 * What the record's statement answers when it ended the notification's schedule (acknowledged or
 * given up): its payment, and whether another notification of that payment was still pending.
 */
interface Ended {
  paymentId: string | null;
  othersPending: boolean;
}

/** The columns an ending record returns (relative to the updated "Notification" row). */
const ENDED_RETURNING = Prisma.sql`RETURNING "Notification"."paymentId", EXISTS (
  SELECT 1 FROM "Notification" o WHERE o."paymentId" = "Notification"."paymentId" AND o."id" <> "Notification"."id" AND o."status"::text = 'pending'
) AS "othersPending"`;

/**
 * Releases what waited behind a notification whose schedule just ended (lib/notifications/hold-back.ts).
 * Only when another notification of its payment was pending as the record saw it: most have none,
 * and a hold recorded at the very moment of the record is released by the stalled-work job.
 */
async function releaseAfter(ended: Ended | undefined): Promise<void> {
  if (ended?.paymentId && ended.othersPending) await releaseHeldBackNotifications({ paymentId: ended.paymentId });
}

/** The event that starts a notification's scheduled attempt `attemptNumber` at once when it runs (decision 0223). */
function attemptEvent(notificationId: string, attemptNumber: number) {
  return {
    type: notificationCreated,
    data: { notificationId, fromAttempt: attemptNumber, immediately: true },
    id: attemptEventId(notificationId, attemptNumber),
  };
}

/**
 * A scheduled attempt the notification made already (attemptCount is at or past it): nothing is
 * sent again. While the notification is pending, its next attempt is handed over (again: under
 * the same event id, a hand-over that was stored starts nothing new), due now: the run that asks
 * is one replayed after its hand-over, or one of an earlier version woken at its next attempt's time.
 */
async function continueSchedule(notification: NotificationForAttempt): Promise<DeliveryAttemptResult> {
  const next = notification.attemptCount + 1;
  if (notification.status === "pending" && next <= DELIVERY_SCHEDULE.length) {
    await sendEventAfterCommit(attemptEvent(notification.id, next));
  }
  return { delivered: false, repeated: true, statusCode: null, error: null, durationMs: 0 };
}

async function recordScheduledAttempt({
  notificationId,
  attemptNumber,
  startedAt,
  durationMs,
  statusCode,
  error,
  responseBody,
  delivered,
  handOver,
}: AttemptRecord & { attemptNumber: number; handOver: boolean }): Promise<void> {
  const isLast = attemptNumber >= DELIVERY_SCHEDULE.length;
  const next = DELIVERY_SCHEDULE[attemptNumber];

  const status: NotificationStatus = delivered ? "delivered" : isLast ? "failed" : "pending";
  // Spec 6.2 counts each wait from the end of the attempt before. Date.now() drops the fraction of
  // its millisecond, so one more keeps a 3 s wait from ending up to a millisecond short (the bench
  // read 2999 ms between a refused answer and the retry's arrival).
  const nextAttemptAt = delivered || isLast || !next ? null : new Date(Date.now() + next.delayMs + 1);
  // The attempt's row. A repeated attempt number (a retried step) overwrites its row, as the ORM's upsert did.
  const attempt = Prisma.sql`
      INSERT INTO "NotificationAttempt" ("id", "notificationId", "attemptNumber", "startedAt", "durationMs", "statusCode", "error", "responseBody")
      VALUES (${newId()}, ${notificationId}, ${attemptNumber}, ${startedAt}, ${durationMs}, ${statusCode}, ${error}, ${responseBody})
      ON CONFLICT ("notificationId", "attemptNumber") DO UPDATE SET
        "startedAt" = EXCLUDED."startedAt", "durationMs" = EXCLUDED."durationMs", "statusCode" = EXCLUDED."statusCode",
        "error" = EXCLUDED."error", "responseBody" = EXCLUDED."responseBody"
      RETURNING 1`;
  // The notification's new state. A delivered notification stays delivered: a slower attempt that
  // failed (a retried step racing the one that got the 200) records its row but never changes the
  // state back.
  const update = Prisma.sql`
    UPDATE "Notification" SET
      "attemptCount" = ${attemptNumber},
      "status" = ${status}::"NotificationStatus",
      "deliveredAt" = ${delivered ? new Date() : null},
      "nextAttemptAt" = ${nextAttemptAt}
    WHERE "id" = ${notificationId} AND "status" <> 'delivered'`;
  if (handOver && next && nextAttemptAt) {
    // Refused, with attempts left: the next attempt's run is handed over in the same statement
    // (decision 0223), an event whose ts is its due time (the executor, or Inngest, starts the run
    // then: decision 0222). Stored only when the state changed, that is not after a 200 that won.
    const stored = await sendEventIfWritten(hotSql(), {
      ...attemptEvent(notificationId, next.attemptNumber),
      ts: nextAttemptAt.getTime(),
      along: Prisma.sql`${update} RETURNING "Notification"."id"`,
      also: attempt,
    });
    await stored?.();
    return;
  }
  // The attempt and the notification's new state in one statement (atomic on its own).
  const [ended] = await hotSql().$queryRaw<Ended[]>`
    WITH "attempt" AS (${attempt})
    ${update} AND EXISTS (SELECT 1 FROM "attempt")
    ${ENDED_RETURNING}`;
  if (status !== "pending") await releaseAfter(ended);
}

/**
 * A resend's attempt row, numbered after the schedule and after any earlier resend (9, 10, ...), so
 * that a scheduled attempt still to come never overwrites it. attemptCount stays the schedule's
 * position (the stalled-work job resumes the schedule from it). Acknowledged, the notification is
 * delivered and has no next attempt (and whatever waited behind it is released); refused, its
 * state and next attempt stay as they were.
 */
async function recordResendAttempt({ notificationId, startedAt, durationMs, statusCode, error, responseBody, delivered }: AttemptRecord): Promise<void> {
  const [ended] = await hotSql().$queryRaw<Ended[]>`
    WITH "attempt" AS (
      INSERT INTO "NotificationAttempt" ("id", "notificationId", "attemptNumber", "startedAt", "durationMs", "statusCode", "error", "responseBody", "resend")
      SELECT ${newId()}, ${notificationId},
             GREATEST(COALESCE(max("attemptNumber"), 0), ${DELIVERY_SCHEDULE.length}) + 1,
             ${startedAt}, ${durationMs}, ${statusCode}, ${error}, ${responseBody}, true
        FROM "NotificationAttempt" WHERE "notificationId" = ${notificationId}
      RETURNING 1
    )
    UPDATE "Notification" SET
      "status" = CASE WHEN ${delivered} THEN 'delivered'::"NotificationStatus" ELSE "status" END,
      "deliveredAt" = CASE WHEN ${delivered} THEN ${new Date().toISOString()}::timestamp(3) ELSE "deliveredAt" END,
      "nextAttemptAt" = CASE WHEN ${delivered} THEN NULL ELSE "nextAttemptAt" END,
      "heldBackAt" = CASE WHEN ${delivered} THEN NULL ELSE "heldBackAt" END
    WHERE "id" = ${notificationId} AND EXISTS (SELECT 1 FROM "attempt")
    ${ENDED_RETURNING}`;
  // Acknowledged by a resend: what waited behind it goes now, in whichever process runs it.
  if (delivered) await releaseAfter(ended);
}
