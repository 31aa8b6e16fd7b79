// Cron, every minute: re-sends the events of committed work whose event was lost between the
// commit and the send, and re-drives with a fresh event id the work whose run failed for good
// (pending follow-ups, MITs never authorized, outbox notifications never delivered), a bounded
// number of times: lib/payments/resend-stalled-events.ts. One run per minute across all instances,
// one call: the round is the whole function, not a step of it (decision 0227), as a step it cost a
// second call and the step's record every minute; a retried call does the round again, as a retried
// step did.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { resendStalledEvents } from "../payments/resend-stalled-events";

export const resendStalledEventsJob = inngest.createFunction(
  { id: "resend-stalled-events", retries: 2, triggers: [{ cron: "* * * * *" }] },
  async ({ event }) => {
    cronPayload.parse(event.data ?? {});
    return resendStalledEvents();
  },
);
