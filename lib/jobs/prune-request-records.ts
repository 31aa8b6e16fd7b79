// Cron, daily at 03:17 UTC: deletes request-log rows and sign-in attempts past their retention
// (lib/retention/prune-request-records.ts). One run per day across all instances.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { pruneRequestRecords } from "../retention/prune-request-records";

export const pruneRequestRecordsJob = inngest.createFunction(
  { id: "prune-request-records", retries: 2, triggers: [{ cron: "17 3 * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    return step.run("prune", () => pruneRequestRecords());
  },
);
