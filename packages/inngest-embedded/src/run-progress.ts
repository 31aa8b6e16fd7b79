// A run's progress: the state a call needs, and the result of a job applied to its run. Every
// change to a run happens in one transaction that first locks the run's row, so parallel steps of
// one run (possibly in two processes) finish one at a time and exactly one of them schedules the
// next discovery call; the one exception is a run's end with nothing else of it pending, which is
// one statement (endRunInOneStatement).
import { ulid } from "./ulid";
import { newLease, type ClaimedJob, type LeaseFor } from "./claims";
import { sql, utc, TRANSACTION_OPTIONS, type ExecutorDatabase, type QueryRunner, type RunStatus, type JobKind, type Sql } from "./database";
import { memoizedSteps, parseRunForCall, runForCallJson, type RunForCall, type RunForCallJson } from "./run-for-call";
import type { SerializedError } from "./protocol";

/** A job this executor holds, with what its call needs. */
export interface LeasedWork {
  job: ClaimedJob;
  run: RunForCall;
}

/** Completed or failed: nothing more happens to the run. */
export function hasEnded(status: RunStatus): boolean {
  return status === "completed" || status === "failed";
}

export type { RunForCall };

export async function loadRunForCall(database: ExecutorDatabase, runId: string): Promise<RunForCall | null> {
  // The run and its memoized steps in one statement (a statement per call saved, issue 37); the
  // claim of due jobs reads the same with each job it leases (claims.ts).
  const [row] = await database.$queryRaw<{ run: RunForCallJson | null }[]>`SELECT ${runForCallJson(sql`${runId}`)} AS "run"`;
  return parseRunForCall(row?.run);
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
  status: RunStatus;
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
  database: ExecutorDatabase;
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
  if (result.complete || result.fail) {
    const ended = await endRunInOneStatement(options.database, { job, result, now });
    if (ended) return ended;
  }
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
      await tx.$executeRaw`DELETE FROM "InngestJob" WHERE "runId" = ${job.runId}`;
      await tx.$executeRaw`UPDATE "InngestRun" SET ${runEndColumns(result, now)} WHERE "id" = ${job.runId}`;
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

/**
 * The end of a run (its call completed or failed it) in ONE statement, when nothing else of the run
 * is pending: the lease check and the job's removal, and the run's end. That is every run ended by
 * a discovery call, which is scheduled only once nothing of the run is pending. When another job of
 * the run exists (a parallel step's, a sleep), nothing is changed and undefined comes back: then
 * finishJob's transaction, which locks the run first, decides. No job can be added to the run
 * meanwhile: only a finisher of another of its jobs adds one, and such a job would have been seen.
 * The statement is endRunsTogether's, for one run.
 */
async function endRunInOneStatement(
  database: ExecutorDatabase,
  options: { job: ClaimedJob; result: JobResult; now: Date },
): Promise<{ outcome: FinishOutcome; createdWork?: boolean } | undefined> {
  const [outcome] = await endRunsTogether(database, [options]);
  if (outcome === undefined) return undefined;
  return outcome === "applied" ? { outcome, createdWork: false } : { outcome };
}

/** A run's end waiting to be written with others (endRunsTogether): its job, the call's result and when it ended. */
export interface PendingRunEnd {
  job: ClaimedJob;
  result: JobResult;
  now: Date;
}

/**
 * The ends of runs in ONE statement (decision 0218; endRunInOneStatement for one run): for each,
 * the lease check, the job's removal and the run's end, when nothing else of the run is pending.
 * An item whose run has another job is left unchanged and answered undefined, for finishJob's
 * transaction to decide (never expected in a batch: only runs ended by their first call wait). A value
 * PostgreSQL refuses (a NUL in the output) fails the whole statement: the caller then records
 * each end on its own (finishJob), where such a run fails alone.
 */
export async function endRunsTogether(database: ExecutorDatabase, ends: PendingRunEnd[]): Promise<(FinishOutcome | undefined)[]> {
  const updatedAt = new Date();
  const rows = ends.map(({ job, result, now }) => ({
    jobId: job.id,
    runId: job.runId,
    leaseToken: job.leaseToken,
    ...runEndValues(result, now, updatedAt),
  }));
  const answers = await database.$queryRaw<{ jobId: string; others: boolean; held: boolean; ended: boolean; status: RunStatus | null }[]>`
    WITH "e" AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS e("jobId" text, "runId" text, "leaseToken" text,
        "status" text, "forceStepPlan" boolean, "requestVersion" int, "attempts" int, "output" text, "error" text,
        "lastError" text, "endedAt" timestamptz, "updatedAt" timestamptz)
    ), "o" AS (
      SELECT e.*, EXISTS (SELECT 1 FROM "InngestJob" j WHERE j."runId" = e."runId" AND j."id" <> e."jobId") AS "others" FROM "e"
    ), "held" AS (
      DELETE FROM "InngestJob" j USING "o" WHERE j."id" = o."jobId" AND j."leaseToken" = o."leaseToken" AND NOT o."others"
      RETURNING j."id"
    ), "ended" AS (
      UPDATE "InngestRun" r SET
        "status" = o."status"::"InngestRunStatus",
        "forceStepPlan" = r."forceStepPlan" OR o."forceStepPlan",
        "requestVersion" = COALESCE(o."requestVersion", r."requestVersion"),
        "attempts" = r."attempts" + o."attempts",
        "output" = o."output"::jsonb,
        "error" = o."error"::jsonb,
        "lastError" = COALESCE(o."lastError", r."lastError"),
        "endedAt" = o."endedAt" AT TIME ZONE 'UTC',
        "nextWakeAt" = NULL,
        "updatedAt" = o."updatedAt" AT TIME ZONE 'UTC'
      FROM "o" JOIN "held" h ON h."id" = o."jobId"
      WHERE r."id" = o."runId" AND r."status" NOT IN ('completed', 'failed')
      RETURNING r."id"
    )
    SELECT o."jobId", o."others", EXISTS (SELECT 1 FROM "held" h WHERE h."id" = o."jobId") AS "held",
      EXISTS (SELECT 1 FROM "ended" x WHERE x."id" = o."runId") AS "ended",
      (SELECT r."status"::text FROM "InngestRun" r WHERE r."id" = o."runId") AS "status"
    FROM "o"`;
  const byJob = new Map(answers.map((answer) => [answer.jobId, answer]));
  return ends.map(({ job }) => {
    const row = byJob.get(job.id);
    if (!row || row.others) return undefined;
    if (row.ended) return "applied";
    // Not ours to end: the run ended already (a duplicate call), or the job's lease went to another executor.
    if (row.held || row.status === null || hasEnded(row.status)) return "run-ended";
    return "lease-lost";
  });
}

/** What a run's end sets on its row, as data: one row of endRunsTogether, and runEndColumns' values. */
function runEndValues(result: JobResult, now: Date, updatedAt: Date) {
  return {
    status: result.complete ? "completed" : "failed",
    forceStepPlan: Boolean(result.forceStepPlan),
    requestVersion: result.requestVersion ?? null,
    attempts: result.callError !== undefined ? 1 : 0,
    output: result.complete ? JSON.stringify(result.complete.output ?? null) : null,
    error: result.fail ? JSON.stringify(result.fail.error ?? null) : null,
    lastError: result.fail ? describeError(result.fail.error) : (result.callError ?? null),
    endedAt: now.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

/** What a run's end (completed or failed by its call) sets on its row: runEndValues as SQL, for finishJob's transaction. */
function runEndColumns(result: JobResult, now: Date): Sql {
  const updatedAt = new Date();
  const end = runEndValues(result, now, updatedAt);
  return sql`
    "status" = ${end.status}::"InngestRunStatus",
    "forceStepPlan" = "forceStepPlan" OR ${end.forceStepPlan},
    "requestVersion" = COALESCE(${end.requestVersion}::int, "requestVersion"),
    "attempts" = "attempts" + ${end.attempts},
    "output" = ${end.output}::jsonb,
    "error" = ${end.error}::jsonb,
    "lastError" = COALESCE(${end.lastError}, "lastError"),
    "endedAt" = ${utc(now)},
    "nextWakeAt" = NULL,
    "updatedAt" = ${utc(updatedAt)}`;
}

/** Memoizes one step; position = completion order; a step memoized before (a late duplicate) is left alone. */
async function memoizeStep(
  tx: QueryRunner,
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
  tx: QueryRunner,
  options: { run: LockedRun; result: Pick<JobResult, "forceStepPlan" | "requestVersion" | "callError">; now: Date; leaseFor?: LeaseFor },
): Promise<LeasedWork | undefined> {
  const { run, result, now } = options;
  const pending = await tx.$queryRaw<{ kind: JobKind; runAt: Date }[]>`
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
          ...memoizedSteps(steps, now),
        },
      };
    }
  }
  const status: RunStatus = pending.every((p) => p.kind === "sleep") ? "sleeping" : "running";
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

export function describeError(error: SerializedError): string {
  return `${error.name ?? "Error"}: ${error.message ?? ""}`.slice(0, 2000);
}
