// Runs an accepted capture, refund or void, then the notification of spec 6.4 (to the address
// stored on the operation when the request was accepted).
// No step: the function body is one unit of work in which every part is idempotent (the processor is
// called only while the operation is pending, the notification id derives from the operation id, the
// event id from the notification id), so a retried run repeats nothing. Wrapped in a single
// step.run it would cost a second call per run (the first call runs the step and answers StepRun,
// a second one only learns that the function returned) and a memoization transaction: measured
// as the largest share of the worker's cost per capture (docs/performance.md). Retries (3) apply
// to the function as they did to its one step.
import { inngest } from "../inngest/client";
import { followUpRequested } from "../inngest/events/merchant-api";
import { deliverNowOrSchedule } from "../notifications/enqueue-notification";
import { notifyOperationResult } from "../payments/notify-operation-result";
import { processFollowUp } from "../payments/process-follow-up-operation";

export const runFollowUpOperation = inngest.createFunction(
  { id: "run-follow-up-operation", retries: 3, triggers: [followUpRequested] },
  async ({ event }) => {
    const { operationId } = event.data;
    const processed = await processFollowUp({ operationId });
    const { status } = processed;
    // Stored with the answer by this run, or (a retried run, an outcome settled by a look-up) looked up.
    const notificationId = processed.notificationId ?? (await notifyOperationResult({ operationId }));
    if (notificationId) await deliverNowOrSchedule(notificationId, processed.firstAttempt);
    return { operationId, status, notificationId };
  },
);
