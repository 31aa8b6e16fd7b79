// The embedded executor's event intake: stores events for fan-out, dropping repeats of an event id.
import { ulid } from "./ulid";
import { z } from "zod";
import { empty, sql, type ExecutorDatabase, type QueryRunner, type Sql } from "./database";
import { wakeLocalExecutors } from "./local-executors";
import { WORK_CHANNEL } from "./work-notifications";

/** An event as the SDK POSTs it to /e/:key. */
export const incomingEventSchema = z.object({
  name: z.string().min(1),
  data: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
  ts: z.number().int().optional(),
  v: z.string().optional(),
});
export type IncomingEvent = z.infer<typeof incomingEventSchema>;

/** The event exactly as a function receives it. */
export interface StoredEventPayload {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
  v?: string;
}

/**
 * Stores each event and returns its id, in the order given. An event whose `id` was seen before
 * is not stored again: its earlier id is returned and it starts no new run.
 */
export async function acceptEvents(options: { database: ExecutorDatabase; events: IncomingEvent[]; now?: Date }): Promise<string[]> {
  const ids: string[] = [];
  for (const event of options.events) {
    ids.push(await storeEvent(options.database, event, options.now ?? new Date()));
  }
  if (ids.length > 0) wakeLocalExecutors();
  return ids;
}

/**
 * Stores one event without waking this process's executors. With a transaction client the row (and
 * the executors' wake-up, which PostgreSQL delivers at commit) commits or rolls back with the caller's
 * state change: an outbox row (the app's outbox: sendEventInTransaction). The caller wakes
 * local executors after its commit. `along` is a data-modifying statement (the state change's own
 * INSERT) run in the same round trip, as a WITH clause that PostgreSQL executes in full whether or
 * not its result is read; it fails or succeeds with the event's insert.
 */
export async function storeEvent(database: QueryRunner, event: IncomingEvent, now: Date, along?: Sql): Promise<string> {
  const stored = await insertEvent(database, event, now, along, false);
  if (stored.id) return stored.id;
  return existingEventId(database, event);
}

/**
 * Stores one event only when `along`, a data-modifying statement with RETURNING, writes a row: the
 * event of a state change that its own statement may decline to make (an INSERT ... SELECT ...
 * WHERE <guard>). One round trip; on its own (outside a transaction) it is one transaction, so the
 * change and its event are written together or not at all. Answers undefined when `along` wrote
 * nothing (and then nothing was stored), else the event's id as storeEvent does. `also`, a second
 * data-modifying statement, runs in the same statement whatever `along` writes (PostgreSQL allows
 * data-modifying WITH clauses at the top level only, so two writes cannot nest in `along`).
 */
export async function storeEventIfWritten(
  database: Pick<QueryRunner, "$queryRaw">,
  event: IncomingEvent,
  now: Date,
  along: Sql,
  also?: Sql,
): Promise<string | undefined> {
  const stored = await insertEvent(database, event, now, along, true, also);
  if (!stored.written) return undefined;
  if (stored.id) return stored.id;
  return existingEventId(database, event);
}

async function insertEvent(
  database: Pick<QueryRunner, "$queryRaw">,
  event: IncomingEvent,
  now: Date,
  along: Sql | undefined,
  onlyIfWritten: boolean,
  also?: Sql,
): Promise<{ written: boolean; id: string | null }> {
  const id = ulid(now.getTime());
  const payload: StoredEventPayload = {
    id: event.id ?? id,
    name: event.name,
    data: event.data ?? {},
    ts: event.ts ?? now.getTime(),
    ...(event.v ? { v: event.v } : {}),
  };
  // The insert and the wake-up of every executor (work-notifications.ts) in one statement: the
  // notification is delivered when the row is committed, and only for an event that is new.
  const [row] = await database.$queryRaw<{ written: boolean; id: string | null }[]>`
    WITH ${also ? sql`"also" AS (${also}),` : empty} ${along ? sql`"along" AS (${along}),` : empty} "inserted" AS (
      INSERT INTO "InngestEvent" ("id", "name", "idempotencyKey", "payload")
      SELECT ${id}, ${event.name}, ${event.id ?? null}, ${JSON.stringify(payload)}::jsonb
      ${onlyIfWritten ? sql`WHERE EXISTS (SELECT 1 FROM "along")` : empty}
      ON CONFLICT ("idempotencyKey") DO NOTHING
      RETURNING "id")
    SELECT ${onlyIfWritten ? sql`EXISTS (SELECT 1 FROM "along")` : sql`true`} AS "written", i."id",
      CASE WHEN i."id" IS NULL THEN NULL ELSE pg_notify(${WORK_CHANNEL}, '')::text END AS "notified"
    FROM (SELECT 1) AS "one" LEFT JOIN "inserted" i ON true`;
  return { written: Boolean(row?.written), id: row?.id ?? null };
}

/** The id of the event stored earlier under this event's idempotency id. */
async function existingEventId(database: Pick<QueryRunner, "$queryRaw">, event: IncomingEvent): Promise<string> {
  if (!event.id) throw new Error("the event was not stored");
  const [existing] = await database.$queryRaw<{ id: string }[]>`SELECT "id" FROM "InngestEvent" WHERE "idempotencyKey" = ${event.id}`;
  if (!existing) throw new Error("the event was not stored");
  return existing.id;
}
