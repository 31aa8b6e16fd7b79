// The cron functions that fire every minute: what the schedule tests can watch run several times.
// The others (daily housekeeping such as prune-request-records) never fire in a test's minutes.
import { scheduledFunctions } from "@/lib/jobs/scheduled";

export const everyMinuteFunctions = scheduledFunctions.filter((fn) =>
  (fn.opts.triggers ?? []).some((trigger) => "cron" in trigger && trigger.cron === "* * * * *"),
);
