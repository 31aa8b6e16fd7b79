// Starting runs: the fan-out of new events to the functions they trigger, and cron fire times.
import { ulid } from "./ulid";
import type { StoredEventPayload } from "./accept-events";
import { newLease, type LeaseFor } from "./claims";
import { sql, utc, TRANSACTION_OPTIONS, type ExecutorDatabase, type Sql } from "./database";
import type { LeasedWork } from "./run-progress";
import type { FunctionDefinition } from "./sync-functions";

/**
 * Starts a run of every matching function for events not yet fanned out, in ONE statement with no
 * transaction around it: the events are picked (SKIP LOCKED keeps two executors apart) and marked,
 * matched to the functions' triggers, and their runs and first discovery jobs inserted, all in one
 * round trip, so a failure leaves the events not fanned out and an empty pick costs no more than the
 * existence check it replaces. The first discovery jobs (up to `leaseFor.limit`) are leased to the
 * caller. `picked` says how many events the pass took: a full batch (`limit`) means more may wait.
 */
export async function fanOutEvents(options: {
  database: ExecutorDatabase;
  functions: FunctionDefinition[];
  now: Date;
  limit?: number;
  leaseFor?: LeaseFor;
}): Promise<{ started: number; leased: LeasedWork[]; picked: number }> {
  const { now } = options;
  const limit = options.limit ?? FAN_OUT_BATCH;
  const lease = options.leaseFor && options.leaseFor.limit > 0 ? newLease(options.leaseFor, now) : undefined;
  const runIds = ulidSequence(now.getTime());
  const jobIds = ulidSequence(now.getTime());
  const [row] = await options.database.$queryRaw<
    { picked: number; started: number; leased: { jobId: string; runId: string; functionId: string; event: Record<string, unknown>; maxAttempts: number }[] }[]
  >`
    WITH "picked" AS (
      UPDATE "InngestEvent" SET "fannedOutAt" = ${utc(now)}
      WHERE "id" IN (
        SELECT "id" FROM "InngestEvent"
        WHERE "fannedOutAt" IS NULL
        ORDER BY "receivedAt", "id"
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING "id", "payload", "receivedAt"
    ), "fns" AS (
      SELECT * FROM jsonb_to_recordset(${functionsJson(options.functions)}::jsonb)
        AS f("ord" int, "functionId" text, "maxAttempts" int, "concurrencyLimit" int, "key" jsonb)
    ), "trig" AS (
      SELECT * FROM jsonb_to_recordset(${triggersJson(options.functions)}::jsonb) AS t("ord" int, "event" text, "conditions" jsonb)
    ), "matched" AS (
      -- Joined on the event's name first (a hash join), so that only a trigger of the event's own
      -- name has its conditions checked: checking every trigger of every function for every event
      -- cost PostgreSQL about 1.7 ms per event (docs/performance.md). One row per event and
      -- function however many of its triggers match.
      SELECT DISTINCT ON (p."id", f."ord") p."id" AS "eventId", p."payload", p."receivedAt", f."ord", f."functionId", f."maxAttempts", f."concurrencyLimit",
        ${concurrencyKeySql}
      FROM "picked" p JOIN "trig" t ON t."event" = p."payload"->>'name' JOIN "fns" f ON f."ord" = t."ord"
      WHERE ${conditionsHoldSql}
      ORDER BY p."id", f."ord"
    ), "timed" AS (
      -- An event whose ts the sender set ahead starts its runs then (Inngest's delayed start, "the
      -- same effect as sleeping at the start"): their first job falls due at ts and is claimed as a
      -- sleep is. Ahead of the database's clock (the one every process shares; an absolute time,
      -- whatever the session's time zone), not of this executor's: an event stamped "now" by a
      -- process whose clock is a little ahead, or an executor's clock behind, starts at once.
      SELECT m.*, CASE WHEN (m."payload"->>'ts')::numeric > extract(epoch FROM statement_timestamp()) * 1000 + ${FUTURE_TS_MARGIN_MS}
        THEN to_timestamp((m."payload"->>'ts')::numeric / 1000) AT TIME ZONE 'UTC' END AS "startAt"
      FROM "matched" m
    ), "numbered" AS (
      SELECT m.*, (row_number() OVER (ORDER BY m."receivedAt", m."eventId", m."ord"))::int AS "n",
        (m."concurrencyLimit" IS NULL AND m."startAt" IS NULL AND row_number() OVER (PARTITION BY m."concurrencyLimit" IS NULL AND m."startAt" IS NULL
          ORDER BY m."receivedAt", m."eventId", m."ord") <= ${lease ? options.leaseFor!.limit : 0}) AS "leased"
      FROM "timed" m
    ), "runs" AS (
      -- One run per function and event: a repeat starts nothing (the unique key), and gets no job.
      INSERT INTO "InngestRun" ("id", "functionId", "eventId", "event", "concurrencyLimit", "concurrencyKey", "maxAttempts", "startedAt", "updatedAt", "nextWakeAt")
      SELECT ${runIds.sql(sql`nb."n"`)}, nb."functionId", nb."eventId", nb."payload", nb."concurrencyLimit", nb."concurrencyKey", nb."maxAttempts",
        ${utc(now)}, ${utc(now)}, COALESCE(nb."startAt", ${utc(now)})
      FROM "numbered" nb
      ON CONFLICT DO NOTHING
      RETURNING "id", "functionId", "eventId"
    ), "jobs" AS (
      INSERT INTO "InngestJob" ("id", "runId", "kind", "hashedId", "runAt", "leasedBy", "leaseToken", "leaseExpiresAt")
      SELECT ${jobIds.sql(sql`nb."n"`)}, r."id", 'discovery'::"InngestJobKind", 'step', COALESCE(nb."startAt", ${utc(now)}),
        CASE WHEN nb."leased" THEN ${lease?.leasedBy ?? null}::text END,
        CASE WHEN nb."leased" THEN ${lease?.leaseToken ?? null}::text END,
        CASE WHEN nb."leased" THEN ${lease ? utc(lease.leaseExpiresAt) : sql`NULL::timestamp`} END
      FROM "runs" r JOIN "numbered" nb ON nb."eventId" = r."eventId" AND nb."functionId" = r."functionId"
      RETURNING "id", "runId", "leaseToken"
    )
    SELECT (SELECT count(*) FROM "picked")::int AS "picked", (SELECT count(*) FROM "runs")::int AS "started",
      COALESCE((
        SELECT json_agg(json_build_object('jobId', j."id", 'runId', j."runId", 'functionId', nb."functionId", 'event', nb."payload",
          'maxAttempts', nb."maxAttempts") ORDER BY nb."n")
        FROM "jobs" j JOIN "runs" r ON r."id" = j."runId" JOIN "numbered" nb ON nb."eventId" = r."eventId" AND nb."functionId" = r."functionId"
        WHERE j."leaseToken" IS NOT NULL), '[]'::json) AS "leased"`;
  const leased: LeasedWork[] = (row?.leased ?? []).map((work) => ({
    job: { id: work.jobId, runId: work.runId, kind: "discovery", hashedId: "step", name: null, attempt: 0, leaseToken: lease!.leaseToken },
    run: {
      id: work.runId,
      functionId: work.functionId,
      event: work.event,
      status: "queued",
      forceStepPlan: false,
      requestVersion: -1,
      maxAttempts: work.maxAttempts,
      steps: [],
      sleepsFrom: now,
    },
  }));
  return { started: row?.started ?? 0, leased, picked: row?.picked ?? 0 };
}

/**
 * An event whose ts is at most this far ahead of the database's clock starts its runs at once: the
 * clocks of the processes that stamp events differ from it by a little, and only a sender that
 * asked for a later start (Inngest's delayed start) may wait.
 */
export const FUTURE_TS_MARGIN_MS = 1_000;

/** Events one fan-out takes at most; a pass that took this many looks again at once. */
export const FAN_OUT_BATCH = 100;

/**
 * The functions as the fan-out statement reads them (jsonb_to_recordset): retries, the concurrency
 * limit and key parts (their triggers are triggersJson's rows). Made once per function list (it
 * changes only at a sync), so a pass sends the same text every time.
 */
const functionsJsonCache = new WeakMap<FunctionDefinition[], string>();
function functionsJson(functions: FunctionDefinition[]): string {
  let json = functionsJsonCache.get(functions);
  if (json === undefined) {
    json = JSON.stringify(
      functions.map((fn, ord) => ({
        ord,
        functionId: fn.id,
        maxAttempts: fn.maxAttempts,
        concurrencyLimit: fn.concurrency?.limit ?? null,
        key: fn.concurrency?.key ?? null,
      })),
    );
    functionsJsonCache.set(functions, json);
  }
  return json;
}

/** A JSON array of path keys as a PostgreSQL text[] (in order), for #> and #>>. */
const pathArray = (json: Sql) => sql`ARRAY(SELECT k FROM jsonb_array_elements_text(${json}) WITH ORDINALITY AS e(k, i) ORDER BY i)`;

/**
 * Every trigger of every function as a row (ord: the function's place in the list), for the
 * fan-out's join on the event name. Made once per function list, as functionsJson.
 */
const triggersJsonCache = new WeakMap<FunctionDefinition[], string>();
function triggersJson(functions: FunctionDefinition[]): string {
  let json = triggersJsonCache.get(functions);
  if (json === undefined) {
    json = JSON.stringify(functions.flatMap((fn, ord) => fn.triggers.map((trigger) => ({ ord, event: trigger.event, conditions: trigger.conditions }))));
    triggersJsonCache.set(functions, json);
  }
  return json;
}

/**
 * triggerMatches (sync-functions.ts) in SQL, for a trigger `t` whose event name already equals the
 * event's: every condition's path holds that exact text (a string equal to it, as JavaScript's ===).
 */
const conditionsHoldSql = sql`NOT EXISTS (
  SELECT 1 FROM jsonb_array_elements(t."conditions") c
  WHERE jsonb_typeof(p."payload" #> ${pathArray(sql`c->'path'`)}) IS DISTINCT FROM 'string'
     OR p."payload" #>> ${pathArray(sql`c->'path'`)} IS DISTINCT FROM c->>'value')`;

/**
 * keyOf (sync-functions.ts) in SQL: null without a limit; '' for a limit without a key, or when a
 * path of the key is missing or not a scalar; else the parts joined (a number as PostgreSQL writes
 * it, which is JavaScript's String() for every integer).
 */
const concurrencyKeySql = sql`CASE
  WHEN f."concurrencyLimit" IS NULL THEN NULL
  WHEN f."key" IS NULL THEN ''
  ELSE COALESCE((
    SELECT CASE WHEN bool_and(k."part" IS NOT NULL) THEN string_agg(k."part", '' ORDER BY k."i") END
    FROM (
      SELECT e."i", CASE
        WHEN e."v" ? 'text' THEN e."v"->>'text'
        WHEN jsonb_typeof(p."payload" #> ${pathArray(sql`e."v"->'path'`)}) IN ('string', 'number', 'boolean')
          THEN p."payload" #>> ${pathArray(sql`e."v"->'path'`)}
        END AS "part"
      FROM jsonb_array_elements(f."key") WITH ORDINALITY AS e("v", "i")) k), '')
  END AS "concurrencyKey"`;

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * ULIDs made in SQL for the rows of one statement: a fresh ULID's first 22 characters and its last
 * four (20 bits) plus the row number, as ulid's monotonic factory increments within a millisecond.
 * The last four start below 2^19, so no row number of one statement can carry past them.
 */
function ulidSequence(time: number): { sql(n: Sql): Sql } {
  const base = ulid(time);
  const tail = [...base.slice(22)].reduce((value, char) => value * 32 + CROCKFORD.indexOf(char), 0) & 0x7ffff;
  return {
    sql: (n) => {
      const v = sql`(${tail}::int + ${n})`;
      // Four base-32 digits of v, most significant first (shifts 15, 10, 5, 0).
      return sql`(${base.slice(0, 22)}::text
        || substr(${CROCKFORD}, ((${v} >> 15) & 31) + 1, 1) || substr(${CROCKFORD}, ((${v} >> 10) & 31) + 1, 1)
        || substr(${CROCKFORD}, ((${v} >> 5) & 31) + 1, 1) || substr(${CROCKFORD}, (${v} & 31) + 1, 1))`;
    },
  };
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
