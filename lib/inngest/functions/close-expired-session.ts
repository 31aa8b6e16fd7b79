// Sleeps until a payment window's timeout, then closes it if it is still open and sends the
// completion notification with status timeout (spec 6.2).
import { expireSession } from "../../payments/expire-session";
import { sendCompletionNotification } from "../../notifications/send-completion-notification";
import { inngest } from "../client";
import { sessionOpened } from "../events/merchant-api";

export const closeExpiredSession = inngest.createFunction(
  { id: "close-expired-payment-session", retries: 3, triggers: [sessionOpened] },
  async ({ event, step }) => {
    const { sessionId, expiresAt } = event.data;
    await step.sleepUntil("wait-for-window-timeout", expiresAt);
    const closed = await step.run("close-window", () => expireSession({ sessionId }));
    if (!closed) return { sessionId, closed: false };
    const notificationId = await step.run("notify-timeout", () => sendCompletionNotification({ sessionId, status: "timeout" }));
    return { sessionId, closed: true, notificationId };
  },
);
