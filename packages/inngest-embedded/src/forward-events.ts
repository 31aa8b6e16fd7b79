// Server mode's half of the outbox: events stored with a state change (storeEvent in the caller's
// transaction, the same row in both modes) are forwarded to an Inngest server and then deleted.
// In embedded mode the executor fans the same rows out instead. So both modes deliver an outbox
// event the same way: committed with the change, taken from the table, at least once, by id (the
// server starts nothing for an event id it has seen, as the executor does).
import { TRANSACTION_OPTIONS, join, type ExecutorDatabase } from "./database";
import type { StoredEventPayload } from "./accept-events";

/** Sends events to the Inngest server (the SDK client's `send`); throws when they were not accepted. */
export type SendToServer = (events: StoredEventPayload[]) => Promise<unknown>;

/**
 * Forwards up to `limit` stored events, oldest first, and deletes them once the server accepted
 * them. SKIP LOCKED keeps forwarders in several processes apart; a failed send leaves the rows for
 * the next try (the relay's poll). Returns how many were forwarded.
 */
export async function forwardEvents(options: { database: ExecutorDatabase; send: SendToServer; limit?: number }): Promise<number> {
  // Most calls find nothing: one cheap query instead of a transaction.
  const [pending] = await options.database.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "InngestEvent" WHERE "fannedOutAt" IS NULL) AS "found"`;
  if (!pending?.found) return 0;
  return options.database.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; payload: StoredEventPayload }[]>`
      SELECT "id", "payload" FROM "InngestEvent" WHERE "fannedOutAt" IS NULL
      ORDER BY "receivedAt", "id" LIMIT ${options.limit ?? 100} FOR UPDATE SKIP LOCKED`;
    if (rows.length === 0) return 0;
    // The rows stay locked during the call: another forwarder skips them, and a crash before the
    // DELETE commits leaves them to be sent again (the server drops the repeat by its id).
    await options.send(rows.map((row) => row.payload));
    await tx.$executeRaw`DELETE FROM "InngestEvent" WHERE "id" IN (${join(rows.map((row) => row.id))})`;
    return rows.length;
  }, TRANSACTION_OPTIONS);
}

export interface EventRelayOptions {
  database: ExecutorDatabase;
  send: SendToServer;
  /** Wake-ups when another process stores an event (listenForWork); closed on stop. */
  listen?: (wake: () => void) => { close(): Promise<void> };
  /** The safety poll: events whose wake-up was lost, or whose send failed, are forwarded by then. */
  pollIntervalMs?: number;
  logger?: { warn(message: string): void };
}

/** Forwards stored events whenever woken (a notification, `wake()`) and at the safety poll. */
export function startEventRelay(options: EventRelayOptions): { wake(): void; stop(): Promise<void> } {
  let running = true;
  let busy: Promise<void> | undefined;
  let again = false;
  const pass = () => {
    if (!running) return;
    if (busy) {
      again = true;
      return;
    }
    busy = (async () => {
      do {
        again = false;
        try {
          while ((await forwardEvents(options)) > 0 && running);
        } catch (error) {
          options.logger?.warn(
            `event relay: forwarding failed, tried again at the next poll: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      } while (again && running);
    })().finally(() => {
      busy = undefined;
    });
  };
  const timer = setInterval(pass, options.pollIntervalMs ?? 10_000);
  timer.unref();
  const listener = options.listen?.(pass);
  pass();
  return {
    wake: pass,
    async stop() {
      running = false;
      clearInterval(timer);
      await listener?.close();
      await busy;
    },
  };
}
