// The one timer of the app: closes expired payment windows every second
// (lib/cardholder/close-expired-sessions.ts). A window must close within a second or two of its
// time-out and cron cannot fire more than once a minute, so this stays an in-process ticker. It is
// safe in every instance at once: each window is claimed with FOR UPDATE SKIP LOCKED and closed by
// a conditional update, and its completion notification has an id derived from the session's.
// A database sweep rather than one sleeping job per session: opening a window then costs one
// INSERT, and windows still close after a restart, since the state is in the sessions table.
import { closeExpiredSessions } from "../cardholder/close-expired-sessions";
import { log } from "../observability/logger";

const SWEEP_INTERVAL_MS = 1_000;
const BATCH = 100;

const state = globalThis as unknown as { __cpsSessionExpiryTicker?: NodeJS.Timeout };

export async function startSessionExpiryTicker(): Promise<void> {
  if (state.__cpsSessionExpiryTicker) return;
  let running = false;
  state.__cpsSessionExpiryTicker = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      try {
        // Drain a backlog (e.g. after downtime) in batches within one tick.
        while ((await closeExpiredSessions({ limit: BATCH })).closed.length === BATCH);
      } catch (error) {
        log("sessions").warn(`sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        running = false;
      }
    })();
  }, SWEEP_INTERVAL_MS);
  state.__cpsSessionExpiryTicker.unref();
}

export function stopSessionExpiryTicker(): void {
  clearInterval(state.__cpsSessionExpiryTicker);
  state.__cpsSessionExpiryTicker = undefined;
}
