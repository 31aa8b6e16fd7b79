// Delivers one merchant notification on the schedule of spec 6.2: an immediate attempt, 3 retries
// 3 s apart, 3 retries 1 h apart, a last attempt 24 h later. Each attempt is its own step (a
// failed attempt is a result, not an error, so Inngest does not retry it on its own schedule) and
// each wait is a durable step.sleep, so the schedule survives restarts. A caller that made the
// immediate attempt itself (deliverNowOrSchedule) starts the function at attempt 2, with the
// event's ts at that attempt's due time and `immediately`: the run starts then and makes it at once,
// without a call that would only begin a sleep (decision 0222).
// An attempt held back by the ordering rule (lib/notifications/hold-back.ts) ends the run: nothing
// sleeps while it waits, and the release of what held it back starts a new run at that attempt.
import { inngest } from "../inngest/client";
import { notificationCreated } from "../inngest/events/merchant-api";
import { DELIVERY_SCHEDULE } from "../notifications/delivery-schedule";
import { deliverNotificationAttempt } from "../notifications/deliver-notification-attempt";

export const deliverNotification = inngest.createFunction(
  { id: "deliver-merchant-notification", triggers: [notificationCreated] },
  async ({ event, step }) => {
    const { notificationId, fromAttempt = 1, immediately = false } = event.data;
    for (const attempt of DELIVERY_SCHEDULE.filter((step) => step.attemptNumber >= fromAttempt)) {
      const waited = immediately && attempt.attemptNumber === fromAttempt;
      if (attempt.delayMs > 0 && !waited) await step.sleep(`wait-before-attempt-${attempt.attemptNumber}`, attempt.delay);
      const result = await step.run(`attempt-${attempt.attemptNumber}`, () =>
        deliverNotificationAttempt({ notificationId, attemptNumber: attempt.attemptNumber, timeoutMs: attempt.timeoutMs }),
      );
      if (result.delivered) return { notificationId, delivered: true, attempts: attempt.attemptNumber };
      if (result.deferred) return { notificationId, delivered: false, heldBackAt: attempt.attemptNumber };
    }
    return { notificationId, delivered: false, attempts: DELIVERY_SCHEDULE.length };
  },
);
