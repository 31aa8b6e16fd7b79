// Background service: polls the processors' card-update feeds (account updater) every minute and
// sends life-cycle notifications. Updates are applied at most once (notification ids derive from
// the update id), so restarting from a day back after a restart is safe.
import { pollCardUpdates } from "../payments/poll-card-updates";
import type { ProcessorName } from "../processors/types";

const POLL_INTERVAL_MS = 60_000;
const START_LOOKBACK_MS = 24 * 3600_000;

const state = globalThis as unknown as { __cpsCardUpdatePoller?: NodeJS.Timeout };

export async function startCardUpdatePoller(): Promise<void> {
  if (state.__cpsCardUpdatePoller) return;
  let since: Partial<Record<ProcessorName, Date>> = {};
  const start = new Date(Date.now() - START_LOOKBACK_MS);
  since = { finaro: start, clearhaus: start, bambora: start };
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const result = await pollCardUpdates({ since });
      since = result.latest;
      for (const [processor, message] of Object.entries(result.errors))
        console.warn(`[life cycle] ${processor} card-update feed: ${message}`);
    } finally {
      running = false;
    }
  };
  state.__cpsCardUpdatePoller = setInterval(() => void tick(), POLL_INTERVAL_MS);
  state.__cpsCardUpdatePoller.unref();
  void tick();
}
