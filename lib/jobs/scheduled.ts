// The cron functions (listed in ./index.ts): each runs once per schedule across every instance,
// in embedded mode (the executor claims the fire time in the database) and on an Inngest server.
import { finishStuckPaymentsJob } from "./finish-stuck-payments";
import { pollAcquirerDisputesJob, pollAcquirerSettlementsJob } from "./poll-reporting-feeds";
import { pollCardUpdatesJob } from "./poll-card-updates";
import { reconcileIndeterminateOperationsJob } from "./reconcile-indeterminate-operations";
import { reconcileTimedOutAuthorizationsJob } from "./reconcile-timed-out-authorizations";
import { resendStalledEventsJob } from "./resend-stalled-events";
import { pruneRequestRecordsJob } from "./prune-request-records";

export const scheduledFunctions = [
  pollCardUpdatesJob,
  reconcileTimedOutAuthorizationsJob,
  reconcileIndeterminateOperationsJob,
  resendStalledEventsJob,
  finishStuckPaymentsJob,
  pruneRequestRecordsJob,
  pollAcquirerDisputesJob,
  pollAcquirerSettlementsJob,
];
