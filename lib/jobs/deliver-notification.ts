// Delivers a merchant notification on the schedule of spec 6.2: an immediate attempt, 3 retries
// 3 s apart, 3 retries 1 h apart, a last attempt 24 h later. A run makes ONE attempt (decision
// 0223): refused, the attempt's record hands the next one over by an event whose ts is its due
// time (the wait counts from the end of the attempt before), and that event starts the next run
// then (decision 0222). So a retry is one call of the function, not a step, a record of it and a
// second call to learn that the function returned. The schedule survives restarts as the stored
// events and the notification's attemptCount, and a replayed run (a call repeated after a crash)
// does not send an attempt the notification already made (deliverNotificationAttempt's
// `schedule`). The caller that made the immediate attempt itself (deliverNowOrSchedule) is one
// more such run.
// An event without `immediately` (the stalled-work job's resend of an overdue attempt) waits the
// attempt's delay first, as a durable step.sleep.
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
    const attempt = DELIVERY_SCHEDULE[fromAttempt - 1];
    if (!attempt) throw new Error(`the delivery schedule has no attempt ${fromAttempt}`);
    const { attemptNumber } = attempt;
    if (attempt.delayMs > 0 && !immediately) await step.sleep(`wait-before-attempt-${attemptNumber}`, attempt.delay);
    // Not a step: the run has nothing after it to replay past, and a repeat is refused by the
    // notification's own record (`schedule`), which a step's memo would only duplicate.
    const result = await deliverNotificationAttempt({ notificationId, attemptNumber, timeoutMs: attempt.timeoutMs, schedule: true });
    if (result.delivered) return { notificationId, delivered: true, attempt: attemptNumber };
    if (result.deferred) return { notificationId, delivered: false, heldBackAt: attemptNumber };
    if (result.repeated) return { notificationId, delivered: false, attempt: attemptNumber, repeated: true };
    return attemptNumber < DELIVERY_SCHEDULE.length
      ? { notificationId, delivered: false, attempt: attemptNumber, next: attemptNumber + 1 }
      : { notificationId, delivered: false, attempt: attemptNumber, gaveUp: true };
  },
);
