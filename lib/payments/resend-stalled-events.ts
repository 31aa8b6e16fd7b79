// Work committed to the database whose background run never happened or failed for good: a
// pending capture, refund or void never sent to its acquirer, a merchant-initiated payment never
// authorized, a notification never attempted or long overdue. Run by the cron job
// lib/jobs/resend-stalled-events.ts every minute.
// - A lost event (the state change committed, the send failed; Inngest-server mode) is re-sent
//   under its ORIGINAL id while the work is young: an id Inngest has seen starts nothing new, so
//   work whose run is alive is not started twice.
// - A run that failed for good (or an event deduplicated away) cannot be repaired by its original
//   id: once the work is older than REDRIVE_AFTER_MS (every retry of the first run has ended) it
//   is re-driven with a FRESH event id, `<original>-redrive-<n>`, at most MAX_REDRIVES times with
//   growing back-off; then an operator is alerted and the row is left alone. The services are
//   idempotent (a follow-up's call is claimed by its outcome mark, an MIT answers what was
//   recorded, a delivery attempt is a row), so a re-drive repeats nothing that happened.
// Rows that another owner handles are not touched: a follow-up whose call was made (its outcome
// is the reconciliation's), a refund waiting for a pending capture (the capture's record wakes
// it), an MIT with authorization attempts (finish-stuck-payments), a notification held back behind
// an earlier one (its release starts it). Each query is ordered oldest
// first and skips rows it cannot act on now, so they never fill its batch.
import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { followUpRequested, mitRequested, notificationCreated } from "../inngest/events/merchant-api";
import { sendEvent } from "../inngest/send-event";
import { HELD_BACK_N } from "../notifications/hold-back";
import { attemptEventId } from "../notifications/delivery-schedule";
import { releaseEventId, releaseHeldBackNotifications } from "../notifications/release-held-back-notifications";
import { log } from "../observability/logger";
import { FOLLOW_UP_TYPES_SQL } from "./follow-ups/kinds";

/** Work younger than this is left alone: its own event is normally on its way. */
export const STALLED_AFTER_MS = 60_000;
/** Older than this, the first run (with every retry) has ended: the work is re-driven with a fresh event id. */
export const REDRIVE_AFTER_MS = 10 * 60_000;
/** Re-drives of one row before an operator is alerted. */
export const MAX_REDRIVES = 5;

export interface ResendStalledEventsResult {
  operationIds: string[];
  mitPaymentIds: string[];
  notificationIds: string[];
  /** Held-back notifications released here (their release never ran). */
  releasedNotificationIds: string[];
  /** Re-driven with a fresh event id, by subject (`operation:<id>`, `mit:<id>`, `notification:<id>`). */
  redriven: string[];
  /** Subjects whose last re-drive was used up now (alerted once). */
  gaveUp: string[];
}

/** A subject may be re-driven: not given up, and its last re-drive long enough ago (back-off: REDRIVE_AFTER_MS × attempts). */
function redrivable(subject: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (
    SELECT 1 FROM "StalledWorkRedrive" r WHERE r."subject" = ${subject}
      AND (r."gaveUpAt" IS NOT NULL OR r."lastAt" > ${now}::timestamp - make_interval(secs => ${REDRIVE_AFTER_MS / 1000} * r."attempts"))
  )`;
}

/** Counts one re-drive of `subject`; returns its number, or undefined when they are used up (alerted once). */
async function countRedrive(subject: string, what: string, now: Date): Promise<number | undefined> {
  const [row] = await db().$queryRaw<{ attempts: number }[]>`
    INSERT INTO "StalledWorkRedrive" ("subject", "attempts", "lastAt") VALUES (${subject}, 1, ${now})
    ON CONFLICT ("subject") DO UPDATE SET "attempts" = "StalledWorkRedrive"."attempts" + 1, "lastAt" = ${now}
    WHERE "StalledWorkRedrive"."gaveUpAt" IS NULL
    RETURNING "attempts"`;
  if (!row) return undefined;
  if (row.attempts <= MAX_REDRIVES) return row.attempts;
  await db().stalledWorkRedrive.update({ where: { subject }, data: { gaveUpAt: now } });
  log("jobs").error(
    { event: "operator.needed", subject },
    `operator needed: ${what} was re-driven ${MAX_REDRIVES} times and its run still did not finish; look at its runs (npm run cli -- runs list) and the error they end with`,
  );
  return undefined;
}

export async function resendStalledEvents({ now = new Date(), limit = 200 }: { now?: Date; limit?: number } = {}): Promise<ResendStalledEventsResult> {
  const stalled = new Date(now.getTime() - STALLED_AFTER_MS);
  const redriveBefore = new Date(now.getTime() - REDRIVE_AFTER_MS);
  const result: ResendStalledEventsResult = {
    operationIds: [],
    mitPaymentIds: [],
    notificationIds: [],
    releasedNotificationIds: [],
    redriven: [],
    gaveUp: [],
  };

  // Follow-ups never sent to their acquirer (no outcome mark: a call was never started).
  const operations = await db().$queryRaw<{ id: string; createdAt: Date; wokenBy: string | null }[]>`
    SELECT o."id", o."createdAt",
      -- A waiting refund's first event is spent: its wake-up went under the id of the capture that
      -- settled last (wake-waiting-refunds.ts), which is its original id here.
      CASE WHEN o."waitingSince" IS NOT NULL THEN (
        SELECT c."id" FROM "Operation" c WHERE c."paymentId" = o."paymentId" AND c."type" = 'capture'
        ORDER BY c."completedAt" DESC NULLS LAST, c."createdAt" DESC LIMIT 1) END AS "wokenBy"
    FROM "Operation" o
    WHERE o."status" = 'pending' AND o."type" IN (${FOLLOW_UP_TYPES_SQL}) AND o."outcomeUnknownSince" IS NULL
      AND o."createdAt" < ${stalled}
      -- A refund waiting for a pending capture is not stalled: recording the capture wakes it
      -- (lib/payments/wake-waiting-refunds.ts). Once no capture is pending, a lost wake-up is repaired here.
      AND NOT (o."waitingSince" IS NOT NULL AND EXISTS (
        SELECT 1 FROM "Operation" c WHERE c."paymentId" = o."paymentId" AND c."type" = 'capture' AND c."status"::text = 'pending'))
      AND (o."createdAt" >= ${redriveBefore} OR ${redrivable(Prisma.sql`'operation:' || o."id"`, now)})
    ORDER BY o."createdAt", o."id" LIMIT ${limit}`;
  /** Re-sends young work under its original id; re-drives older work under a fresh one, while re-drives are left. */
  const act = async (subject: string, what: string, young: boolean, originalId: string, send: (eventId: string) => Promise<unknown>) => {
    if (young) {
      await send(originalId);
      return "resent" as const;
    }
    const attempt = await countRedrive(subject, what, now);
    if (attempt === undefined) {
      result.gaveUp.push(subject);
      return "gave-up" as const;
    }
    await send(`${originalId}-redrive-${attempt}`);
    result.redriven.push(subject);
    return "redriven" as const;
  };

  for (const { id, createdAt, wokenBy } of operations) {
    const send = (eventId: string) => sendEvent({ type: followUpRequested, data: { operationId: id }, id: eventId });
    const originalId = wokenBy ? `follow-up-${id}-after-${wokenBy}` : `follow-up-${id}`;
    if ((await act(`operation:${id}`, `the follow-up operation ${id}`, createdAt >= redriveBefore, originalId, send)) === "resent") {
      result.operationIds.push(id);
    }
  }

  // Merchant-initiated payments whose run never made an attempt (those with attempts are finished
  // by lib/jobs/finish-stuck-payments.ts).
  const mits = await db().$queryRaw<{ id: string; requestResponseId: string; createdAt: Date }[]>`
    SELECT p."id", p."requestResponseId", p."createdAt" FROM "Payment" p
    WHERE p."status" = 'PENDING' AND p."requestResponseId" IS NOT NULL AND p."paymentType" <> 'payout'
      AND NOT EXISTS (SELECT 1 FROM "Operation" o WHERE o."paymentId" = p."id")
      AND p."createdAt" < ${stalled}
      AND (p."createdAt" >= ${redriveBefore} OR ${redrivable(Prisma.sql`'mit:' || p."id"`, now)})
    ORDER BY p."createdAt", p."id" LIMIT ${limit}`;
  for (const { id, requestResponseId, createdAt } of mits) {
    const send = (eventId: string) => sendEvent({ type: mitRequested, data: { paymentId: id, responseId: requestResponseId }, id: eventId });
    if ((await act(`mit:${id}`, `the merchant-initiated payment ${id}`, createdAt >= redriveBefore, `mit-${id}`, send)) === "resent") {
      result.mitPaymentIds.push(id);
    }
  }

  // Notifications held back by the ordering rule whose release never ran (its process died between
  // the record that ended what held them back and the release): released now. Those still held
  // back are not stalled: they have no run, and the release starts one (money review N6).
  const unreleased = await db().$queryRaw<{ paymentId: string }[]>`
    SELECT DISTINCT n."paymentId" FROM "Notification" n
    WHERE n."heldBackAt" < ${stalled} AND n."status" = 'pending' AND NOT ${HELD_BACK_N}
    LIMIT ${limit}`;
  for (const { paymentId } of unreleased) result.releasedNotificationIds.push(...(await releaseHeldBackNotifications({ paymentId, now })));

  // Outbox rows whose delivery never started (attemptCount 0), or whose next attempt is long
  // overdue (the hand-over to the delivery function was lost, or its run failed for good). A
  // released row's first event is its release's.
  const notifications = await db().$queryRaw<{ id: string; attemptCount: number; releases: number; due: Date }[]>`
    SELECT n."id", n."attemptCount", n."releases", COALESCE(n."nextAttemptAt", n."createdAt") AS "due" FROM "Notification" n
    WHERE n."status" = 'pending' AND n."kind" <> 'test' AND n."heldBackAt" IS NULL
      AND ((n."attemptCount" = 0 AND n."releases" = 0 AND n."createdAt" < ${stalled})
        OR ((n."attemptCount" > 0 OR n."releases" > 0) AND n."nextAttemptAt" < ${stalled}))
      AND (COALESCE(n."nextAttemptAt", n."createdAt") >= ${redriveBefore} OR ${redrivable(Prisma.sql`'notification:' || n."id"`, now)})
    ORDER BY COALESCE(n."nextAttemptAt", n."createdAt"), n."id" LIMIT ${limit}`;
  for (const { id, attemptCount, releases, due } of notifications) {
    const data = attemptCount > 0 ? { notificationId: id, fromAttempt: attemptCount + 1 } : { notificationId: id };
    const send = (eventId: string) => sendEvent({ type: notificationCreated, data, id: eventId });
    // The event that was to start its next attempt: a release's, the attempt before it's hand-over
    // (decision 0223), or the first dispatch.
    const originalId = releases > 0 ? releaseEventId(id, releases) : attemptCount > 0 ? attemptEventId(id, attemptCount + 1) : `notification-${id}`;
    if ((await act(`notification:${id}`, `the notification ${id}`, due >= redriveBefore, originalId, send)) === "resent") {
      result.notificationIds.push(id);
    }
  }
  return result;
}
