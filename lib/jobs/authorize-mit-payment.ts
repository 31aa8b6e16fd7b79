// Authorizes an accepted merchant-initiated payment, then delivers the notification of spec 6.3.
// No step: the service is retry-safe (see lib/payments/authorize-accepted-mit.ts) and the event id
// of the delivery derives from the notification id, so a retried run repeats nothing; one step
// around everything would only add a second executor call per run (run-follow-up-operation.ts).
import { inngest } from "../inngest/client";
import { mitRequested } from "../inngest/events/merchant-api";
import { deliverNowOrSchedule } from "../notifications/enqueue-notification";
import { authorizeAcceptedMit } from "../payments/authorize-accepted-mit";

export const authorizeMitPayment = inngest.createFunction(
  { id: "authorize-mit-payment", retries: 3, triggers: [mitRequested] },
  async ({ event }) => {
    const { paymentId, responseId } = event.data;
    const { status, notificationId } = await authorizeAcceptedMit({ paymentId, responseId });
    if (notificationId) await deliverNowOrSchedule(notificationId);
    return { paymentId, status, notificationId };
  },
);
