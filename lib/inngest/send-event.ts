// Sends one typed event to Inngest from anywhere outside a function (route handlers, services,
// the CLI). Works in both modes: to the Inngest server, or into the embedded executor's table.
// Inside a function use `step.sendEvent("<step id>", type.create(data, { id }))` instead, so the
// send is memoized and not repeated on a retry.
import type { EventType, StandardSchemaV1 } from "inngest";
import { inngest } from "./client";
import { log } from "../observability/logger";

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
}

/** Validates `data` against the event's schema, sends the event and returns Inngest's event id. */
export async function sendEvent<TType extends AnyEventType>(options: SendEventOptions<TType>): Promise<string> {
  const created = options.type.create(options.data as never, { id: options.id });
  await created.validate();
  const { ids } = await inngest.send({ name: created.name, data: created.data, id: options.id });
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
