// Runs an accepted capture, refund or void, then the notification of spec 6.4 (to the address
// stored on the operation when the request was accepted).
// One step: every part is idempotent (the processor is called only while the operation is pending,
// the notification id derives from the operation id, the event id from the notification id), so a
// retried step repeats nothing, and one step is one executor round trip less per operation.
import { inngest } from "../inngest/client";
import { followUpRequested } from "../inngest/events/merchant-api";
import { deliverNowOrSchedule } from "../notifications/enqueue-notification";
import { notifyOperationResult } from "../payments/notify-operation-result";
import { processFollowUpOperation } from "../payments/process-follow-up-operation";

export const runFollowUpOperation = inngest.createFunction(
  { id: "run-follow-up-operation", retries: 3, triggers: [followUpRequested] },
  async ({ event, step }) => {
    const { operationId } = event.data;
    return step.run("process-and-notify", async () => {
      const status = await processFollowUpOperation({ operationId });
      const notificationId = await notifyOperationResult({ operationId });
      if (notificationId) await deliverNowOrSchedule(notificationId);
      return { operationId, status, notificationId };
    });
  },
);
