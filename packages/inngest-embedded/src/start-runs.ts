// Starting runs: the fan-out of new events to the functions they trigger, and cron fire times.
import { ulid } from "ulid";
import type { StoredEventPayload } from "./accept-events";
import { newLease, type LeaseFor } from "./claims";
import { utc, TRANSACTION_OPTIONS, type ExecutorDatabase } from "./database";
import type { LeasedWork } from "./run-progress";
import { keyOf, triggerMatches, type FunctionDefinition } from "./sync-functions";

/**
 * Starts a run of every matching function for events not yet fanned out. The first discovery
 * jobs (up to `leaseFor.limit`) are returned already leased to the caller.
 */
export async function fanOutEvents(options: {
  database: ExecutorDatabase;
  functions: FunctionDefinition[];
  now: Date;
  limit?: number;
  leaseFor?: LeaseFor;
}): Promise<{ started: number; leased: LeasedWork[] }> {
  // Most polls find no new event: one cheap query instead of a transaction.
  const [pending] = await options.database.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "InngestEvent" WHERE "fannedOutAt" IS NULL) AS "found"`;
  if (!pending?.found) return { started: 0, leased: [] };
  return options.database.$transaction(async (tx) => {
    // Taken and marked in one statement: the runs below are written in the same transaction, so
    // a failure leaves the events not fanned out, and SKIP LOCKED keeps two executors apart.
    const picked = await tx.$queryRaw<{ id: string; payload: StoredEventPayload; receivedAt: Date }[]>`
      UPDATE "InngestEvent" SET "fannedOutAt" = ${utc(options.now)}
      WHERE "id" IN (
        SELECT "id" FROM "InngestEvent"
        WHERE "fannedOutAt" IS NULL
        ORDER BY "receivedAt", "id"
        LIMIT ${options.limit ?? 100}
        FOR UPDATE SKIP LOCKED)
      RETURNING "id", "payload", "receivedAt"`;
    // In the order they arrived, as the runs were started before (RETURNING keeps no order).
    const events = picked.sort(
      (a, b) => new Date(a.receivedAt).getTime() - new Date(b.receivedAt).getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    let started = 0;
    const leased: LeasedWork[] = [];
    for (const event of events) {
      for (const fn of options.functions) {
        if (!fn.triggers.some((trigger) => triggerMatches(trigger, event.payload as unknown as { name: string } & Record<string, unknown>)))
          continue;
        const runId = ulid(options.now.getTime());
        const payload = event.payload as unknown as Record<string, unknown>;
        const concurrencyLimit = fn.concurrency?.limit ?? null;
        const concurrencyKey = fn.concurrency ? (fn.concurrency.key ? (keyOf(fn.concurrency.key, payload) ?? "") : "") : null;
        // A function with a concurrency limit starts through the claim, which enforces the limit.
        const lease =
          options.leaseFor && !fn.concurrency && leased.length < options.leaseFor.limit
            ? newLease(options.leaseFor, options.now)
            : undefined;
        const jobId = ulid();
        // One run per function and event: a repeat starts nothing. The run and its first job in one statement: the job only if the run was new.
        const inserted = await tx.$executeRaw`
          WITH "run" AS (
            INSERT INTO "InngestRun" ("id", "functionId", "eventId", "event", "concurrencyLimit", "concurrencyKey", "maxAttempts", "startedAt", "updatedAt", "nextWakeAt")
            VALUES (${runId}, ${fn.id}, ${event.id}, ${JSON.stringify(event.payload)}::jsonb, ${concurrencyLimit}, ${concurrencyKey},
              ${fn.maxAttempts}, ${utc(options.now)}, ${utc(options.now)}, ${utc(options.now)})
            ON CONFLICT DO NOTHING
            RETURNING "id"
          )
          INSERT INTO "InngestJob" ("id", "runId", "kind", "hashedId", "runAt", "leasedBy", "leaseToken", "leaseExpiresAt")
          SELECT ${jobId}, "run"."id", 'discovery'::"InngestJobKind", 'step', ${utc(options.now)}, ${lease?.leasedBy ?? null}::text,
            ${lease?.leaseToken ?? null}::text, ${lease ? utc(lease.leaseExpiresAt) : null}::timestamp
          FROM "run"`;
        if (inserted === 0) continue;
        started++;
        if (lease) {
          leased.push({
            job: { id: jobId, runId, kind: "discovery", hashedId: "step", name: null, attempt: 0, leaseToken: lease.leaseToken },
            run: {
              id: runId,
              functionId: fn.id,
              event: event.payload as unknown as Record<string, unknown>,
              status: "queued",
              forceStepPlan: false,
              requestVersion: -1,
              maxAttempts: fn.maxAttempts,
              steps: [],
              sleepsFrom: options.now,
            },
          });
        }
      }
    }
    return { started, leased };
  }, TRANSACTION_OPTIONS);
}

/**
 * Starts the run of a cron trigger's fire time, once across all executors: its event
 * (`inngest/scheduled.timer`) has the idempotency key `cron:<function>:<time>`.
 */
export async function startScheduledRun(options: {
  database: ExecutorDatabase;
  fn: FunctionDefinition;
  cron: string;
  fireAt: Date;
  now: Date;
}): Promise<boolean> {
  const { fn, fireAt, now } = options;
  return options.database.$transaction(async (tx) => {
    const eventId = ulid(now.getTime());
    const payload: StoredEventPayload = {
      id: eventId,
      name: "inngest/scheduled.timer",
      data: { cron: options.cron },
      ts: fireAt.getTime(),
    };
    const inserted = await tx.$executeRaw`
      INSERT INTO "InngestEvent" ("id", "name", "idempotencyKey", "payload", "fannedOutAt")
      VALUES (${eventId}, ${payload.name}, ${`cron:${fn.id}:${fireAt.toISOString()}`}, ${JSON.stringify(payload)}::jsonb, ${utc(now)})
      ON CONFLICT ("idempotencyKey") DO NOTHING`;
    if (inserted === 0) return false;
    const runId = ulid(now.getTime());
    await tx.$executeRaw`
      INSERT INTO "InngestRun" ("id", "functionId", "eventId", "event", "concurrencyLimit", "concurrencyKey", "maxAttempts", "startedAt", "updatedAt", "nextWakeAt")
      VALUES (${runId}, ${fn.id}, ${eventId}, ${JSON.stringify(payload)}::jsonb, ${fn.concurrency?.limit ?? null}, ${fn.concurrency ? "" : null},
        ${fn.maxAttempts}, ${utc(now)}, ${utc(now)}, ${utc(now)})`;
    await tx.$executeRaw`
      INSERT INTO "InngestJob" ("id", "runId", "kind", "hashedId", "runAt") VALUES (${ulid()}, ${runId}, 'discovery', 'step', ${utc(now)})`;
    return true;
  }, TRANSACTION_OPTIONS);
}
