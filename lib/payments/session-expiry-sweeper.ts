// Background service: closes expired payment windows every second (lib/payments/close-expired-sessions.ts)
// and, every 30 s, re-sends the events of pending work whose event was lost.
// A database sweep rather than one sleeping job per session: opening a window then costs one
// INSERT, and windows still close after a restart, since the state is in the sessions table.
import { closeExpiredSessions } from "../cardholder/close-expired-sessions";
import { resendStalledEvents } from "./resend-stalled-events";

const SWEEP_INTERVAL_MS = 1_000;
/** Every this many sweeps, lost events of pending work are re-sent (lib/payments/resend-stalled-events.ts). */
const RESEND_EVERY_SWEEPS = 30;

const state = globalThis as unknown as { __cpsSessionSweeper?: NodeJS.Timeout };

export async function startSessionExpirySweeper(): Promise<void> {
  if (state.__cpsSessionSweeper) return;
  let running = false;
  let sweeps = 0;
  state.__cpsSessionSweeper = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      try {
        // Drain a backlog (e.g. after downtime) in batches within one tick.
        while ((await closeExpiredSessions()).closed.length === 100);
        if (++sweeps % RESEND_EVERY_SWEEPS === 0) await resendStalledEvents();
      } catch (error) {
        console.warn(`[sessions] sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        running = false;
      }
    })();
  }, SWEEP_INTERVAL_MS);
  state.__cpsSessionSweeper.unref();
}
