// Delivers one merchant notification on the schedule of spec 6.2: an immediate attempt, 3 retries
// 3 s apart, 3 retries 1 h apart, a last attempt 24 h later. Each attempt is its own step (a
// failed attempt is a result, not an error, so Inngest does not retry it on its own schedule) and
// each wait is a durable step.sleep, so the schedule survives restarts. A caller that made the
// immediate attempt itself (deliverNowOrSchedule) starts the function at attempt 2.
import { inngest } from "../inngest/client";
import { DELIVERY_SCHEDULE } from "../notifications/delivery-schedule";
import { deliverNotificationAttempt, earlierPendingNotification } from "../notifications/deliver-notification-attempt";

/** Waits behind earlier notifications of the same payment before an attempt goes anyway (about their whole schedule). */
const MAX_TURNS_WAITING = 40;
import { notificationCreated } from "../inngest/events/merchant-api";

export const deliverNotification = inngest.createFunction(
  { id: "deliver-merchant-notification", triggers: [notificationCreated] },
  async ({ event, step }) => {
    const { notificationId, fromAttempt = 1 } = event.data;
    for (const attempt of DELIVERY_SCHEDULE.filter((step) => step.attemptNumber >= fromAttempt)) {
      if (attempt.delayMs > 0) await step.sleep(`wait-before-attempt-${attempt.attemptNumber}`, attempt.delay);
      // In the order of the state changes: while an earlier notification of the payment is still
      // to be delivered, this one waits for it (its next attempt, or a few seconds), never ahead of it.
      for (let turn = 0; turn < MAX_TURNS_WAITING; turn++) {
        const earlier = await step.run(`order-${attempt.attemptNumber}-${turn}`, () => earlierPendingNotification(notificationId));
        if (!earlier) break;
        const due = earlier.nextAttemptAt ? new Date(earlier.nextAttemptAt).getTime() - Date.now() : 0;
        await step.sleep(`wait-for-earlier-${attempt.attemptNumber}-${turn}`, `${Math.min(Math.max(due + 1_000, 3_000), 3_600_000)}ms`);
      }
      const result = await step.run(`attempt-${attempt.attemptNumber}`, () =>
        deliverNotificationAttempt({ notificationId, attemptNumber: attempt.attemptNumber, timeoutMs: attempt.timeoutMs }),
      );
      if (result.delivered) return { notificationId, delivered: true, attempts: attempt.attemptNumber };
    }
    return { notificationId, delivered: false, attempts: DELIVERY_SCHEDULE.length };
  },
);
