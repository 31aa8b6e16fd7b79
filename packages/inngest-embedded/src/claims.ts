// Claims and leases of due jobs: SKIP LOCKED picks, the concurrency limit, renewal and release,
// and when the next job falls due. HTTP calls never happen inside these statements.
import { ulid } from "./ulid";
import { join, sql, utc, TRANSACTION_OPTIONS, type ExecutorDatabase, type JobKind } from "./database";
import { NOTIFY_WORK_SQL } from "./work-notifications";
import { parseRunForCall, runForCallJson, type RunForCall, type RunForCallJson } from "./run-for-call";

export interface ClaimedJob {
  id: string;
  runId: string;
  kind: JobKind;
  hashedId: string;
  name: string | null;
  attempt: number;
  leaseToken: string;
}

/** Lease the work this call creates to this executor, so it runs at once without a claim round trip. */
export interface LeaseFor {
  workerId: string;
  leaseMs: number;
  /** At most this many new jobs are leased; the rest wait for any executor's claim. */
  limit: number;
}

export function newLease(leaseFor: LeaseFor, now: Date): { leasedBy: string; leaseToken: string; leaseExpiresAt: Date } {
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
  database: ExecutorDatabase;
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
}): Promise<ClaimedJob[]> {
  return (await claimDueJobsAndNextDue(options)).jobs;
}

/**
 * claimDueJobs, and what nextDueAt would answer right after it, from the same statement: the
 * executor's idle timer needs no query of its own after a pass. `nextDueAt` is undefined when the
 * statement did not run (no free slot) or a second claim of limited jobs followed it.
 */
export async function claimDueJobsAndNextDue(options: {
  database: ExecutorDatabase;
  workerId: string;
  now: Date;
  leaseMs: number;
  limit: number;
}): Promise<{ jobs: ClaimedJob[]; nextDueAt?: Date | null; runs: Map<string, RunForCall> }> {
  if (options.limit <= 0) return { jobs: [], runs: new Map() };
  const { now } = options;
  const token = ulid();
  const leaseExpiresAt = new Date(now.getTime() + options.leaseMs);
  // Jobs of functions without a concurrency limit (nearly all) are leased in ONE statement, with
  // no transaction around it: the SKIP LOCKED pick and the lease are atomic in it. The same
  // statement says whether a job of a limited function is due too; only then is the transaction
  // below needed, which counts the group's jobs in flight under its advisory lock. It also says
  // when the earliest other job falls due (nextDueAt's question; the jobs it leases count with
  // their new lease, which the snapshot of the other rows does not show yet).
  // The plan is forced to start from the due jobs (few: a job row lives only until its run moves
  // on) and look each run up by its key (a scalar subquery is never turned into a join), and the
  // active runs are found through the status index (IN, not NOT IN). As a join, the planner may
  // start from InngestRun, which holds every finished run of the retention period: with stale
  // statistics that took 140 ms to 5 s per claim at 420,000 finished runs (docs/performance.md).
  // The question whether a limited run has a job due reads the partial index of active limited
  // runs (InngestRun_limited_active_idx; usually empty), not every active run (decision 0230).
  const rows = await options.database.$queryRaw<(ClaimedJob & { run: RunForCallJson | null; limitedDue: boolean | null; nextDue: Date | null })[]>`
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
        "InngestJob"."attempt", "InngestJob"."leaseToken", "InngestJob"."runAt"
    )
    SELECT "id", "runId", "kind", "hashedId", "name", "attempt", "leaseToken", ${runForCallJson(sql`"leased"."runId"`)} AS "run",
      NULL::boolean AS "limitedDue", NULL::timestamp AS "nextDue" FROM "leased"
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL::json,
      EXISTS (
        SELECT 1 FROM "InngestRun" r
        WHERE r."status" IN ('queued', 'running', 'sleeping') AND r."concurrencyLimit" IS NOT NULL
          AND EXISTS (SELECT 1 FROM "InngestJob" j WHERE j."runId" = r."id" AND j."runAt" <= ${utc(now)}
            AND (j."leaseExpiresAt" IS NULL OR j."leaseExpiresAt" <= ${utc(now)}))),
      LEAST(
        (SELECT min(GREATEST(j."runAt", COALESCE(j."leaseExpiresAt", j."runAt"))) FROM "InngestJob" j
         WHERE NOT EXISTS (SELECT 1 FROM "picked" WHERE "picked"."id" = j."id")),
        (SELECT min(GREATEST("runAt", ${utc(leaseExpiresAt)})) FROM "leased"))`;
  // Each leased job comes with its run as the call needs it (the run's own read saved, issue 37).
  const runs = new Map<string, RunForCall>();
  const claimed: ClaimedJob[] = rows
    .filter((row) => row.limitedDue === null)
    .map(({ id, runId, kind, hashedId, name, attempt, leaseToken, run }) => {
      const forCall = parseRunForCall(run);
      if (forCall) runs.set(id, forCall);
      return { id, runId, kind, hashedId, name, attempt, leaseToken };
    });
  const summary = rows.find((row) => row.limitedDue !== null);
  const limitedDue = summary?.limitedDue === true;
  if (!limitedDue || claimed.length >= options.limit) {
    return { jobs: claimed, nextDueAt: summary?.nextDue ? new Date(summary.nextDue) : null, runs };
  }
  const limited = await claimLimitedJobs({ ...options, limit: options.limit - claimed.length, token, leaseExpiresAt });
  return { jobs: [...claimed, ...limited], runs };
}

/** Due jobs of functions with a concurrency limit: counted per group under its advisory lock. */
async function claimLimitedJobs(options: {
  database: ExecutorDatabase;
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
    const candidates = await tx.$queryRaw<{ id: string; functionId: string; concurrencyKey: string | null; concurrencyLimit: number }[]>`
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
      WHERE "id" IN (${join(accepted)})
      RETURNING "id", "runId", "kind", "hashedId", "name", "attempt", "leaseToken"`;
  }, TRANSACTION_OPTIONS);
}

/** Extends a held lease (long calls); false when the lease was lost. */
export async function renewLease(options: { database: ExecutorDatabase; job: ClaimedJob; until: Date }): Promise<boolean> {
  const updated = await options.database.$executeRaw`
    UPDATE "InngestJob" SET "leaseExpiresAt" = ${utc(options.until)} WHERE "id" = ${options.job.id} AND "leaseToken" = ${options.job.leaseToken}`;
  return updated === 1;
}

/**
 * When the earliest job falls due that this executor could claim (for the idle executor's timer):
 * a job nobody holds at its run time, a leased one when its lease expires (its executor died).
 */
export async function nextDueAt(options: { database: ExecutorDatabase }): Promise<Date | null> {
  const [row] = await options.database.$queryRaw<{ next: Date | null }[]>`
    SELECT min(GREATEST("runAt", COALESCE("leaseExpiresAt", "runAt"))) AS "next" FROM "InngestJob"`;
  return row?.next ? new Date(row.next) : null;
}

/** Gives back every job leased under `workerId` (a restarted process whose predecessor died). */
export async function releaseLeasesOf(options: { database: ExecutorDatabase; workerId: string }): Promise<number> {
  const released = await options.database.$executeRaw`
    UPDATE "InngestJob" SET "leasedBy" = NULL, "leaseToken" = NULL, "leaseExpiresAt" = NULL WHERE "leasedBy" = ${options.workerId}`;
  // Due now: the other executors take them at once rather than at their next safety poll.
  if (released > 0) await notifyWork(options.database);
  return released;
}

/** Gives a leased job back (an executor stopping before it could start it). */
export async function releaseLease(options: { database: ExecutorDatabase; job: ClaimedJob }): Promise<void> {
  const released = await options.database.$executeRaw`
    UPDATE "InngestJob" SET "leasedBy" = NULL, "leaseToken" = NULL, "leaseExpiresAt" = NULL
    WHERE "id" = ${options.job.id} AND "leaseToken" = ${options.job.leaseToken}`;
  if (released > 0) await notifyWork(options.database);
}

/** Wakes the executors of every process (./work-notifications.ts). */
export async function notifyWork(database: ExecutorDatabase): Promise<void> {
  await database.$queryRawUnsafe(NOTIFY_WORK_SQL);
}
