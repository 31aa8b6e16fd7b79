// Authorizes an accepted merchant-initiated payment, then delivers the notification of spec 6.3.
// One step: the service is retry-safe (see lib/payments/authorize-accepted-mit.ts) and the event id
// of the delivery derives from the notification id, so a retried step repeats nothing.
import { inngest } from "../inngest/client";
import { mitRequested } from "../inngest/events/merchant-api";
import { deliverNowOrSchedule } from "../notifications/enqueue-notification";
import { authorizeAcceptedMit } from "../payments/authorize-accepted-mit";

export const authorizeMitPayment = inngest.createFunction(
  { id: "authorize-mit-payment", retries: 3, triggers: [mitRequested] },
  async ({ event, step }) => {
    const { paymentId, responseId } = event.data;
    return step.run("authorize-and-notify", async () => {
      const { status, notificationId } = await authorizeAcceptedMit({ paymentId, responseId });
      if (notificationId) await deliverNowOrSchedule(notificationId);
      return { paymentId, status, notificationId };
    });
  },
);
