// Events of the merchant API and its notifications. Payloads carry ids only: never card data.
import { eventType } from "inngest";
import { z } from "zod";

/** A stored notification is ready for delivery (lib/notifications/enqueue-notification.ts). */
export const notificationCreated = eventType("merchant/notification.created", {
  schema: z.object({
    notificationId: z.string().min(1),
    /** The attempt to start the schedule with: 2 when the caller already made the immediate attempt. */
    fromAttempt: z.number().int().min(1).max(8).optional(),
    /** The first attempt goes without its wait: it was served before the notification was held back (a release). */
    immediately: z.boolean().optional(),
  }),
});

/**
 * A capture, refund or void was accepted and its amount reserved (lib/payments/request-follow-up.ts).
 * Ids only: the notification address is on the operation, resolved once when the request was accepted.
 */
export const followUpRequested = eventType("payment/follow-up.requested", {
  schema: z.object({ operationId: z.string().min(1) }),
});

/**
 * A merchant-initiated payment was created and waits for its authorization (lib/payments/authorize-mit.ts).
 * Ids only: the requested processor and the notification address are on the payment.
 */
export const mitRequested = eventType("payment/mit.requested", {
  schema: z.object({ paymentId: z.string().min(1), responseId: z.string().min(1) }),
});
