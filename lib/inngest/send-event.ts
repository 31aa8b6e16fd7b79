// Sends one typed event to Inngest from anywhere outside a function (route handlers, services,
// the CLI). Works in both modes: to the Inngest server, or into the embedded executor's table.
// Inside a function use `step.sendEvent("<step id>", type.create(data, { id }))` instead, so the
// send is memoized and not repeated on a retry.
import type { EventType, StandardSchemaV1 } from "inngest";
import { inngest } from "./client";
import type { Prisma, SqlRunner, Tx } from "../db";
import { config } from "../env";
import { currentTraceparent } from "../observability/tracing";
import { storeEvent, storeEventIfWritten, wakeLocalExecutors } from "@cps/inngest-embedded";
import { log } from "../observability/logger";
import { forwardStoredEventsNow } from "./event-relay";

type AnyEventType = EventType<string, StandardSchemaV1<Record<string, unknown>>>;
type DataOf<TType> =
  TType extends EventType<string, infer TSchema> ? (TSchema extends StandardSchemaV1<infer TData> ? TData : never) : never;

export interface SendEventOptions<TType extends AnyEventType> {
  type: TType;
  data: DataOf<TType>;
  /**
   * The event's idempotency id. Inngest starts nothing for an id it has seen before, so derive it
   * from what makes the event unique (e.g. `payment-authorized-${paymentId}`) to make a retried
   * request harmless.
   */
  id: string;
  /**
   * When its runs start, in milliseconds since the epoch (the event's `ts`): a time ahead delays
   * them, as Inngest documents for its server ("the same effect as sleeping at the start") and the
   * embedded executor does likewise. Absent: now.
   */
  ts?: number;
}

/** Validates `data` against the event's schema, sends the event and returns Inngest's event id. */
export async function sendEvent<TType extends AnyEventType>(options: SendEventOptions<TType>): Promise<string> {
  const created = options.type.create(options.data as never, { id: options.id });
  await created.validate();
  const { ids } = await inngest.send({ name: created.name, data: created.data, id: options.id, ...(options.ts === undefined ? {} : { ts: options.ts }) });
  const [id] = ids;
  if (!id) throw new Error(`Inngest returned no id for event ${created.name}`);
  return id;
}

/**
 * Sends the event that starts work already committed to the database (an outbox row, a pending
 * operation). A failed send is logged, not thrown: the state change stands, the request that made
 * it is answered, and the stalled-work job (lib/jobs/resend-stalled-events.ts) sends it again.
 */
export async function sendEventAfterCommit<TType extends AnyEventType>(options: SendEventOptions<TType>): Promise<string | undefined> {
  try {
    return await sendEvent(options);
  } catch (error) {
    log("inngest").warn(
      `event ${options.id} not sent (the stalled-work job sends it again): ${error instanceof Error ? error.message : "error"}`,
    );
    return undefined;
  }
}

/**
 * The event of a state change written in `tx` (an outbox row), for the change's caller to finish
 * after its commit with the function this returns. One path in both modes: the event row is
 * inserted with `tx`, so it commits or rolls back with the state change, exactly once (its id is
 * the idempotency key), and the wake-up (pg_notify) fires at commit. Then:
 * - embedded mode: the executors fan the row out (what is returned wakes this process's ones);
 * - Inngest server mode: the row is forwarded to the server and deleted (what is returned forwards
 *   it now; the relay of ./event-relay.ts forwards whatever that missed), so a lost send is no longer
 *   left to the stalled-work job.
 * This replaces the Inngest client's send after the commit, whose middleware, serialization and
 * in-process event API cost about 0.55 ms of CPU per event more than the INSERT itself, plus a
 * second transaction (docs/performance.md, "Web-process CPU per request").
 * The data is validated against the event's schema; a trace context is attached as the client's
 * middleware does (lib/observability/inngest-middleware.ts).
 */
export async function sendEventInTransaction<TType extends AnyEventType>(
  tx: Tx,
  options: SendEventOptions<TType> & {
    /** The state change's own write (a data-modifying statement), run with the event's insert in one round trip. */
    along?: Prisma.Sql;
  },
): Promise<() => Promise<void>> {
  await storeEvent(tx, await outboxEvent(options), new Date(), options.along);
  return afterOutboxCommit();
}

/**
 * The event of a state change that its own statement may decline to make: `along` is that
 * statement (an INSERT ... SELECT ... WHERE <guard> ... RETURNING), and the event is stored with it
 * in one round trip only when it writes a row. `database` may be a transaction or the client: on
 * the client the statement is a transaction of its own, the change and its event both or neither.
 * Answers undefined when `along` wrote nothing (nothing was stored), else what sendEventInTransaction
 * answers: the function to call after the commit.
 */
export async function sendEventIfWritten<TType extends AnyEventType>(
  database: SqlRunner,
  options: SendEventOptions<TType> & {
    along: Prisma.Sql;
    /** A second data-modifying statement of the same round trip, run whether or not `along` writes. */
    also?: Prisma.Sql;
  },
): Promise<(() => Promise<void>) | undefined> {
  const stored = await storeEventIfWritten(database, await outboxEvent(options), new Date(), options.along, options.also);
  return stored === undefined ? undefined : afterOutboxCommit();
}

/** The event's data validated against its schema, with the trace context the client's middleware would add. */
async function outboxEvent<TType extends AnyEventType>(options: SendEventOptions<TType>) {
  const created = options.type.create(options.data as never, { id: options.id });
  await created.validate();
  const data = { ...(created.data as Record<string, unknown>) };
  const traceparent = currentTraceparent();
  if (traceparent && !("traceparent" in data)) data.traceparent = traceparent;
  return { name: created.name, data, id: options.id, ...(options.ts === undefined ? {} : { ts: options.ts }) };
}

/** After the outbox row's commit: embedded mode wakes this process's executors; server mode forwards it now. */
function afterOutboxCommit(): () => Promise<void> {
  if (config().inngestMode === "embedded") return async () => wakeLocalExecutors();
  return forwardStoredEventsNow;
}
