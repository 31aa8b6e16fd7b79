// Cron, every minute: reads each processor's card-update feed (account updater) from its cursor
// row and sends the life-cycle notifications (lib/payments/advance-card-update-cursor.ts). One run
// per minute across all instances; one step per processor, so one feed being down neither stops
// the others nor repeats them on a retry.
import { z } from "zod";
import { inngest } from "../inngest/client";
import { advanceCardUpdateCursor } from "../payments/advance-card-update-cursor";
import { PROCESSOR_NAMES } from "../processors/types";
import { log } from "../observability/logger";

/** The payload of the cron event (`inngest/scheduled.timer`): only its schedule. */
const cronPayload = z.object({ cron: z.string().optional() }).loose();

export const pollCardUpdatesJob = inngest.createFunction(
  { id: "poll-card-updates", retries: 2, triggers: [{ cron: "* * * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const results = [];
    for (const processor of PROCESSOR_NAMES) {
      const result = await step.run(`poll-${processor}`, () => advanceCardUpdateCursor({ processor }));
      if (result.error) log("life-cycle").warn(`${processor} card-update feed: ${result.error}`);
      results.push(result);
    }
    return results;
  },
);
