// Server mode: outbox events (sendEventInTransaction) are stored with their state change as in
// embedded mode, and forwarded from the table to the Inngest server (@cps/inngest-embedded
// forwardEvents): right after the commit by the process that made the change, and by the relay
// service of every process on wake-ups and a safety poll for any the first try missed.
import { forwardEvents, listenForWork, startEventRelay, type SendToServer } from "@cps/inngest-embedded";
import { databaseUrl, db } from "../db";
import { config } from "../env";
import { lazyLogger, log } from "../observability/logger";
import { inngest } from "./client";

const state = globalThis as unknown as { __cpsEventRelay?: ReturnType<typeof startEventRelay> };

const sendToServer: SendToServer = async (events) => {
  await inngest.send(events.map((event) => ({ id: event.id, name: event.name, data: event.data, ts: event.ts })));
};

/** The relay service (server mode only): forwards stored events on notifications and every poll. */
export async function startEventRelayService(): Promise<void> {
  if (config().inngestMode !== "server" || state.__cpsEventRelay) return;
  const logger = lazyLogger("inngest");
  state.__cpsEventRelay = startEventRelay({
    database: db(),
    send: sendToServer,
    listen: (wake) => listenForWork({ connectionString: databaseUrl(), onWork: wake, logger }),
    pollIntervalMs: config().INNGEST_EMBEDDED_POLL_MS,
    logger,
  });
}

export async function stopEventRelayService(): Promise<void> {
  const relay = state.__cpsEventRelay;
  state.__cpsEventRelay = undefined;
  await relay?.stop();
}

/**
 * After a commit that stored outbox events: forward them now. A failure is logged, not thrown: the
 * change stands and the relay forwards the rows at its next pass.
 */
export async function forwardStoredEventsNow(): Promise<void> {
  if (state.__cpsEventRelay) return state.__cpsEventRelay.wake();
  try {
    await forwardEvents({ database: db(), send: sendToServer });
  } catch (error) {
    log("inngest").warn(`stored events not forwarded yet (the relay tries again): ${error instanceof Error ? error.message : "error"}`);
  }
}
