// The executor's database work. Every change to a run happens in one transaction that first locks
// the run's row, so parallel steps of one run (possibly in two processes) finish one at a time and
// exactly one of them schedules the next discovery call. HTTP calls never happen inside these
// transactions.
import { ulid } from "ulid";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { InngestJobKind, InngestRunStatus } from "../../generated/prisma/enums";
import type { StoredEventPayload } from "./accept-events";
import type { SerializedError } from "./protocol";
import { keyOf, triggerMatches, type FunctionDefinition } from "./sync-functions";
import { NOTIFY_WORK_SQL } from "./work-notifications";

type Tx = Prisma.TransactionClient;

/**
 * Interactive transactions wait for a connection longer than Prisma's 2 s default: on the
 * embedded database transactions run one at a time, and a busy service queues them.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

/** A timestamp parameter compared with the TIMESTAMP(3) (UTC, no zone) columns Prisma writes. */
function utc(date: Date): Prisma.Sql {
  return Prisma.sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}

export interface ClaimedJob {
  id: string;
  runId: string;
  kind: InngestJobKind;
  hashedId: string;
  name: string | null;
  attempt: number;
  leaseToken: string;
}

/** A job this executor holds, with what its call needs. */
export interface LeasedWork {
  job: ClaimedJob;
  run: RunForCall;
}

/** Lease the work this call creates to this executor, so it runs at once without a claim round trip. */
export interface LeaseFor {
  workerId: string;
  leaseMs: number;
  /** At most this many new jobs are leased; the rest wait for any executor's claim. */
  limit: number;
}

/**
 * Starts a run of every matching function for events not yet fanned out. The first discovery
 * jobs (up to `leaseFor.limit`) are returned already leased to the caller.
 */
export async function fanOutEvents(options: {
  database: PrismaClient;
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
    const events = picked.sort((a, b) => new Date(a.receivedAt).getTime() - new Date(b.receivedAt).getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
  database: PrismaClient;
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

/** Completed or failed: nothing more happens to the run. */
export function hasEnded(status: InngestRunStatus): boolean {
  return status === "completed" || status === "failed";
}

function newLease(leaseFor: LeaseFor, now: Date): { leasedBy: string; leaseToken: string; leaseExpiresAt: Date } {
  return { leasedBy: leaseFor.workerId, leaseToken: ulid(), leaseExpiresAt: new Date(now.getTime() + leaseFor.leaseMs) };
}

/**
 * Leases up to `limit` due jobs: due ones never leased, and ones whose lease expired (their
 * executor died mid-call). SKIP LOCKED lets two executors claim side by side without waiting, and
 * never hands one job to both. For runs of a function with a concurrency limit, a transaction-
 * scoped advisory lock per function and key serializes the count of jobs in flight, so the limit
 * holds across processes.
 */
export async function claimDueJobs(options: {
  database: PrismaClient;
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
}): Promise<ClaimedJob[]> {
  if (options.limit <= 0) return [];
  const { now } = options;
  const token = ulid();
  const leaseExpiresAt = new Date(now.getTime() + options.leaseMs);
  // Jobs of functions without a concurrency limit (nearly all) are leased in ONE statement, with
  // no transaction around it: the SKIP LOCKED pick and the lease are atomic in it. The same
  // statement says whether a job of a limited function is due too; only then is the transaction
  // below needed, which counts the group's jobs in flight under its advisory lock.
  // The plan is forced to start from the due jobs (few: a job row lives only until its run moves
  // on) and look each run up by its key (a scalar subquery is never turned into a join), and the
  // active runs are found through the status index (IN, not NOT IN). As a join, the planner may
  // start from InngestRun, which holds every finished run of the retention period: with stale
  // statistics that took 140 ms to 5 s per claim at 420,000 finished runs (docs/performance.md).
  const rows = await options.database.$queryRaw<(ClaimedJob & { limitedDue: boolean | null })[]>`
    WITH "picked" AS (
      SELECT j."id" FROM "InngestJob" j
      WHERE j."runAt" <= ${utc(now)}
        AND (j."leaseExpiresAt" IS NULL OR j."leaseExpiresAt" <= ${utc(now)})
        AND (SELECT r."status" IN ('queued', 'running', 'sleeping') AND r."concurrencyLimit" IS NULL
             FROM "InngestRun" r WHERE r."id" = j."runId")
      ORDER BY j."runAt", j."id"
      LIMIT ${options.limit}
      FOR UPDATE OF j SKIP LOCKED
    ), "leased" AS (
      UPDATE "InngestJob" SET "leasedBy" = ${options.workerId}, "leaseToken" = ${token}, "leaseExpiresAt" = ${utc(leaseExpiresAt)}
      FROM "picked" WHERE "InngestJob"."id" = "picked"."id"
      RETURNING "InngestJob"."id", "InngestJob"."runId", "InngestJob"."kind", "InngestJob"."hashedId", "InngestJob"."name",
        "InngestJob"."attempt", "InngestJob"."leaseToken"
    )
    SELECT "id", "runId", "kind", "hashedId", "name", "attempt", "leaseToken", NULL::boolean AS "limitedDue" FROM "leased"
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, true WHERE EXISTS (
      SELECT 1 FROM "InngestRun" r
      WHERE r."status" IN ('queued', 'running', 'sleeping') AND r."concurrencyLimit" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "InngestJob" j WHERE j."runId" = r."id" AND j."runAt" <= ${utc(now)}
          AND (j."leaseExpiresAt" IS NULL OR j."leaseExpiresAt" <= ${utc(now)})))`;
  const claimed: ClaimedJob[] = rows
    .filter((row) => row.limitedDue === null)
    .map(({ id, runId, kind, hashedId, name, attempt, leaseToken }) => ({ id, runId, kind, hashedId, name, attempt, leaseToken }));
  const limitedDue = rows.some((row) => row.limitedDue === true);
  if (!limitedDue || claimed.length >= options.limit) return claimed;
  const limited = await claimLimitedJobs({ ...options, limit: options.limit - claimed.length, token, leaseExpiresAt });
  return [...claimed, ...limited];
}

/** Due jobs of functions with a concurrency limit: counted per group under its advisory lock. */
async function claimLimitedJobs(options: {
  database: PrismaClient;
  workerId: string;
  now: Date;
  limit: number;
  token: string;
  leaseExpiresAt: Date;
}): Promise<ClaimedJob[]> {
  const { now, token, leaseExpiresAt } = options;
  return options.database.$transaction(async (tx) => {
    // Exactly `limit` rows are locked, so claimers side by side never hide work from each other.
    // Jobs of a concurrency group already at its limit are left out here (a quick check); the
    // count under the group's advisory lock below decides.
    const candidates = await tx.$queryRaw<
      { id: string; functionId: string; concurrencyKey: string | null; concurrencyLimit: number }[]
    >`
      SELECT j."id", r."functionId", r."concurrencyKey", r."concurrencyLimit" FROM "InngestJob" j
      JOIN "InngestRun" r ON r."id" = j."runId"
      WHERE j."runAt" <= ${utc(now)}
        AND (j."leaseExpiresAt" IS NULL OR j."leaseExpiresAt" <= ${utc(now)})
        AND r."status" IN ('queued', 'running', 'sleeping')
        AND (r."concurrencyLimit" IS NOT NULL AND r."concurrencyLimit" > (
          SELECT count(*) FROM "InngestJob" held JOIN "InngestRun" hr ON hr."id" = held."runId"
          WHERE hr."functionId" = r."functionId" AND hr."concurrencyKey" IS NOT DISTINCT FROM r."concurrencyKey"
            AND held."leaseExpiresAt" > ${utc(now)}))
      ORDER BY j."runAt", j."id"
      LIMIT ${options.limit}
      FOR UPDATE OF j SKIP LOCKED`;
    const accepted: string[] = [];
    const capacity = new Map<string, number>();
    for (const candidate of candidates) {
      if (accepted.length >= options.limit) break;
      const group = JSON.stringify([candidate.functionId, candidate.concurrencyKey]);
      let remaining = capacity.get(group);
      if (remaining === undefined) {
        await tx.$queryRaw`SELECT 1 AS "locked" FROM (SELECT pg_advisory_xact_lock(hashtext(${group}))) AS "lock"`;
        const [row] = await tx.$queryRaw<{ active: number }[]>`
          SELECT count(*)::int AS "active" FROM "InngestJob" j JOIN "InngestRun" r ON r."id" = j."runId"
          WHERE r."functionId" = ${candidate.functionId} AND r."concurrencyKey" IS NOT DISTINCT FROM ${candidate.concurrencyKey}
            AND j."leaseExpiresAt" > ${utc(now)}`;
        remaining = candidate.concurrencyLimit - (row?.active ?? 0);
      }
      if (remaining > 0) {
        accepted.push(candidate.id);
        remaining--;
      }
      capacity.set(group, remaining);
    }
    if (accepted.length === 0) return [];
    return tx.$queryRaw<ClaimedJob[]>`
      UPDATE "InngestJob"
      SET "leasedBy" = ${options.workerId}, "leaseToken" = ${token}, "leaseExpiresAt" = ${utc(leaseExpiresAt)}
      WHERE "id" IN (${Prisma.join(accepted)})
      RETURNING "id", "runId", "kind", "hashedId", "name", "attempt", "leaseToken"`;
  }, TRANSACTION_OPTIONS);
}

export interface RunForCall {
  id: string;
  functionId: string;
  event: Record<string, unknown>;
  status: InngestRunStatus;
  forceStepPlan: boolean;
  requestVersion: number;
  maxAttempts: number;
  steps: { hashedId: string; memo: unknown }[];
  /**
   * What a Sleep op found by this call counts from: when the run's latest step ended (else when the
   * run started). The function reached the sleep right after that step; the time the executor took
   * to make the discovery call that reports the sleep is not the function's to wait.
   */
  sleepsFrom?: Date;
}

/** The latest completion among a run's steps, else `otherwise`. */
function latestStepEnd(steps: { completedAt: Date | string }[], otherwise: Date): Date {
  let latest: number | undefined;
  for (const step of steps) {
    const at = new Date(step.completedAt).getTime();
    if (latest === undefined || at > latest) latest = at;
  }
  return latest === undefined ? otherwise : new Date(latest);
}

export async function loadRunForCall(database: PrismaClient, runId: string): Promise<RunForCall | null> {
  const run = await database.inngestRun.findUnique({
    where: { id: runId },
    select: {
      id: true,
      functionId: true,
      event: true,
      status: true,
      forceStepPlan: true,
      requestVersion: true,
      maxAttempts: true,
      startedAt: true,
      steps: { orderBy: { position: "asc" }, select: { hashedId: true, result: true, completedAt: true } },
    },
  });
  if (!run) return null;
  const { startedAt, ...rest } = run;
  return {
    ...rest,
    event: run.event as Record<string, unknown>,
    steps: run.steps.map((step) => ({ hashedId: step.hashedId, memo: (step.result as { memo: unknown }).memo })),
    sleepsFrom: latestStepEnd(run.steps, startedAt),
  };
}

/** Extends a held lease (long calls); false when the lease was lost. */
export async function renewLease(options: { database: PrismaClient; job: ClaimedJob; until: Date }): Promise<boolean> {
  const updated = await options.database.inngestJob.updateMany({
    where: { id: options.job.id, leaseToken: options.job.leaseToken },
    data: { leaseExpiresAt: options.until },
  });
  return updated.count === 1;
}

/** What finishing a job does to its run; applied by `finishJob` in one transaction. */
export interface JobResult {
  /** Memoize these steps (in this order) with the value the SDK gets back. */
  memoize?: { hashedId: string; name?: string | null; memo: unknown }[];
  /** Schedule these planned steps and sleeps (skipped if already memoized or scheduled). */
  schedule?: { kind: "step" | "sleep"; hashedId: string; name?: string | null; runAt: Date }[];
  /** Retry this same job later with attempt + 1 instead of removing it. */
  retryAt?: Date;
  /** The run completed with this output. */
  complete?: { output: unknown };
  /** The run failed. */
  fail?: { error: SerializedError };
  forceStepPlan?: boolean;
  requestVersion?: number;
  /** A failed call to record on the run (counts as an attempt). */
  callError?: string;
}

export type FinishOutcome = "applied" | "lease-lost" | "run-ended";

interface LockedRun {
  id: string;
  status: InngestRunStatus;
  functionId: string;
  event: Record<string, unknown>;
  forceStepPlan: boolean;
  requestVersion: number;
  maxAttempts: number;
}

/**
 * Applies a job's result if this executor still holds the job's lease. When the result makes a
 * discovery call due now and `leaseFor` is given, that job is created leased to the caller and
 * returned with the run's state, so the caller goes on with the run without a claim round trip.
 */
export async function finishJob(options: {
  database: PrismaClient;
  job: ClaimedJob;
  result: JobResult;
  now: Date;
  leaseFor?: LeaseFor;
}): Promise<{
  outcome: FinishOutcome;
  next?: LeasedWork;
  /**
   * Whether the result left work for a later pass: jobs not leased to the caller (planned steps,
   * sleeps, a retry). When false, the
   * caller's executor has no reason to look for work after this call.
   */
  createdWork?: boolean;
}> {
  const { job, result, now } = options;
  return options.database.$transaction(async (tx) => {
    const [run] = await tx.$queryRaw<LockedRun[]>`
      SELECT "id", "status", "functionId", "event", "forceStepPlan", "requestVersion", "maxAttempts"
      FROM "InngestRun" WHERE "id" = ${job.runId} FOR UPDATE`;
    const ended = !run || hasEnded(run.status);
    const retrying = Boolean(result.retryAt) && !ended && !result.complete && !result.fail;
    // The lease check and the job's removal (or rescheduling) in one statement.
    const held = retrying
      ? await tx.$executeRaw`
          UPDATE "InngestJob" SET "attempt" = "attempt" + 1, "runAt" = ${utc(result.retryAt as Date)}, "leasedBy" = NULL,
            "leaseToken" = NULL, "leaseExpiresAt" = NULL, "lastError" = ${result.callError ?? null}
          WHERE "id" = ${job.id} AND "leaseToken" = ${job.leaseToken}`
      : await tx.$executeRaw`DELETE FROM "InngestJob" WHERE "id" = ${job.id} AND "leaseToken" = ${job.leaseToken}`;
    if (!run || ended) return { outcome: "run-ended" as const }; // e.g. finished by a duplicate call
    if (held === 0) return { outcome: "lease-lost" as const };

    if (result.complete || result.fail) {
      // Raw SQL: this runs once per run, and the ORM's update compiles the query and reads the
      // whole row (event, output) back for nothing (docs/performance.md, background work).
      const lastError = result.fail ? describeError(result.fail.error) : (result.callError ?? null);
      await tx.$executeRaw`DELETE FROM "InngestJob" WHERE "runId" = ${job.runId}`;
      await tx.$executeRaw`
        UPDATE "InngestRun" SET
          "status" = ${result.complete ? "completed" : "failed"}::"InngestRunStatus",
          "forceStepPlan" = "forceStepPlan" OR ${Boolean(result.forceStepPlan)},
          "requestVersion" = COALESCE(${result.requestVersion ?? null}::int, "requestVersion"),
          "attempts" = "attempts" + ${result.callError !== undefined ? 1 : 0},
          "output" = ${result.complete ? JSON.stringify(result.complete.output ?? null) : null}::jsonb,
          "error" = ${result.fail ? JSON.stringify(result.fail.error ?? null) : null}::jsonb,
          "lastError" = COALESCE(${lastError}, "lastError"),
          "endedAt" = ${utc(now)},
          "nextWakeAt" = NULL,
          "updatedAt" = ${utc(new Date())}
        WHERE "id" = ${job.runId}`;
      return { outcome: "applied" as const, createdWork: false };
    }

    for (const step of result.memoize ?? []) await memoizeStep(tx, { runId: job.runId, step, now });
    for (const planned of result.schedule ?? []) {
      await tx.$executeRaw`
        INSERT INTO "InngestJob" ("id", "runId", "kind", "hashedId", "name", "runAt")
        SELECT ${ulid()}, ${job.runId}, ${planned.kind}::"InngestJobKind", ${planned.hashedId}, ${planned.name ?? null}, ${utc(planned.runAt)}
        WHERE NOT EXISTS (SELECT 1 FROM "InngestStep" WHERE "runId" = ${job.runId} AND "hashedId" = ${planned.hashedId})
        ON CONFLICT ("runId", "hashedId") DO NOTHING`;
    }
    const next = await continueRun(tx, { run, result, now, leaseFor: options.leaseFor });
    const createdWork = retrying || (result.schedule?.length ?? 0) > 0 || !next;
    return { outcome: "applied" as const, next, createdWork };
  }, TRANSACTION_OPTIONS);
}

/** Memoizes one step; position = completion order; a step memoized before (a late duplicate) is left alone. */
async function memoizeStep(
  tx: Tx,
  options: { runId: string; step: { hashedId: string; name?: string | null; memo: unknown }; now: Date },
): Promise<void> {
  const { runId, step, now } = options;
  await tx.$executeRaw`
    INSERT INTO "InngestStep" ("runId", "hashedId", "name", "result", "position", "completedAt")
    SELECT ${runId}, ${step.hashedId}, ${step.name ?? null}, ${JSON.stringify({ memo: step.memo })}::jsonb,
      (SELECT count(*)::int FROM "InngestStep" WHERE "runId" = ${runId}), ${utc(now)}
    ON CONFLICT DO NOTHING`;
}

/**
 * After a job of a locked run was resolved: schedules the next discovery call once nothing of the
 * current group is pending (leased to the caller when `leaseFor` is given) and sets the run's
 * status and next wake-up.
 */
async function continueRun(
  tx: Tx,
  options: { run: LockedRun; result: Pick<JobResult, "forceStepPlan" | "requestVersion" | "callError">; now: Date; leaseFor?: LeaseFor },
): Promise<LeasedWork | undefined> {
  const { run, result, now } = options;
  const pending = await tx.$queryRaw<{ kind: InngestJobKind; runAt: Date }[]>`
    SELECT "kind", "runAt" FROM "InngestJob" WHERE "runId" = ${run.id}`;
  let next: LeasedWork | undefined;
  // A parallel group ends when nothing of it is pending: the next discovery call may run a single
  // step inline again (the server resets its forced step planning the same way).
  const discoveryNext = pending.length === 0;
  if (discoveryNext) {
    const lease = options.leaseFor ? newLease(options.leaseFor, now) : undefined;
    const jobId = ulid();
    await tx.$executeRaw`
      INSERT INTO "InngestJob" ("id", "runId", "kind", "hashedId", "runAt", "leasedBy", "leaseToken", "leaseExpiresAt")
      VALUES (${jobId}, ${run.id}, 'discovery', 'step', ${utc(now)}, ${lease?.leasedBy ?? null}, ${lease?.leaseToken ?? null},
        ${lease ? utc(lease.leaseExpiresAt) : null})`;
    pending.push({ kind: "discovery", runAt: now });
    if (lease) {
      const steps = await tx.$queryRaw<{ hashedId: string; result: { memo: unknown }; completedAt: Date }[]>`
        SELECT "hashedId", "result", "completedAt" FROM "InngestStep" WHERE "runId" = ${run.id} ORDER BY "position"`;
      next = {
        job: { id: jobId, runId: run.id, kind: "discovery", hashedId: "step", name: null, attempt: 0, leaseToken: lease.leaseToken },
        run: {
          id: run.id,
          functionId: run.functionId,
          event: run.event,
          status: "running",
          forceStepPlan: false,
          requestVersion: result.requestVersion ?? run.requestVersion,
          maxAttempts: run.maxAttempts,
          steps: steps.map((step) => ({ hashedId: step.hashedId, memo: step.result.memo })),
          sleepsFrom: latestStepEnd(steps, now),
        },
      };
    }
  }
  const status: InngestRunStatus = pending.every((p) => p.kind === "sleep")
    ? "sleeping"
    : "running";
  const nextWakeAt = new Date(Math.min(...pending.map((p) => new Date(p.runAt).getTime())));
  // Raw SQL: an ORM update would read the whole row (event, output) back for nothing.
  await tx.$executeRaw`
    UPDATE "InngestRun" SET
      "status" = ${status}::"InngestRunStatus",
      "nextWakeAt" = ${utc(nextWakeAt)},
      "forceStepPlan" = ${discoveryNext ? false : Boolean(run.forceStepPlan || result.forceStepPlan)},
      "requestVersion" = COALESCE(${result.requestVersion ?? null}::int, "requestVersion"),
      "attempts" = "attempts" + ${result.callError !== undefined ? 1 : 0},
      "lastError" = COALESCE(${result.callError ?? null}, "lastError"),
      "updatedAt" = ${utc(new Date())}
    WHERE "id" = ${run.id}`;
  return next;
}

/**
 * Deletes finished runs (with their steps) that ended before `before`, and events fanned out
 * before then that no remaining run refers to, at most `batch` of each per call. Returns how
 * many runs and events went.
 */
export async function pruneHistory(options: {
  database: PrismaClient;
  before: Date;
  batch?: number;
}): Promise<{ runs: number; events: number }> {
  const batch = options.batch ?? 1_000;
  const runs = await options.database.$executeRaw`
    DELETE FROM "InngestRun" WHERE "id" IN (
      SELECT "id" FROM "InngestRun"
      WHERE "status" IN ('completed', 'failed') AND "endedAt" < ${utc(options.before)}
      LIMIT ${batch})`;
  const events = await options.database.$executeRaw`
    DELETE FROM "InngestEvent" WHERE "id" IN (
      SELECT e."id" FROM "InngestEvent" e
      WHERE e."fannedOutAt" < ${utc(options.before)}
        AND NOT EXISTS (SELECT 1 FROM "InngestRun" r WHERE r."eventId" = e."id")
      LIMIT ${batch})`;
  return { runs, events };
}

/**
 * When the earliest job falls due that this executor could claim (for the idle executor's timer):
 * a job nobody holds at its run time, a leased one when its lease expires (its executor died).
 */
export async function nextDueAt(options: { database: PrismaClient }): Promise<Date | null> {
  const [row] = await options.database.$queryRaw<{ next: Date | null }[]>`
    SELECT min(GREATEST("runAt", COALESCE("leaseExpiresAt", "runAt"))) AS "next" FROM "InngestJob"`;
  return row?.next ? new Date(row.next) : null;
}

/** Gives back every job leased under `workerId` (a restarted process whose predecessor died). */
export async function releaseLeasesOf(options: { database: PrismaClient; workerId: string }): Promise<number> {
  const released = await options.database.inngestJob.updateMany({
    where: { leasedBy: options.workerId },
    data: { leasedBy: null, leaseToken: null, leaseExpiresAt: null },
  });
  // Due now: the other executors take them at once rather than at their next safety poll.
  if (released.count > 0) await notifyWork(options.database);
  return released.count;
}

/** Gives a leased job back (an executor stopping before it could start it). */
export async function releaseLease(options: { database: PrismaClient; job: ClaimedJob }): Promise<void> {
  const released = await options.database.inngestJob.updateMany({
    where: { id: options.job.id, leaseToken: options.job.leaseToken },
    data: { leasedBy: null, leaseToken: null, leaseExpiresAt: null },
  });
  if (released.count > 0) await notifyWork(options.database);
}

/** Wakes the executors of every process (lib/inngest/executor/work-notifications.ts). */
export async function notifyWork(database: PrismaClient): Promise<void> {
  await database.$queryRawUnsafe(NOTIFY_WORK_SQL);
}

export function describeError(error: SerializedError): string {
  return `${error.name ?? "Error"}: ${error.message ?? ""}`.slice(0, 2000);
}
