// "Resend" on the payment page and under Developers > Notifications: one more attempt of the same
// notification, now, with the same webhook-id and the same bytes (as Stripe's resend keeps the event
// id). A receiver that drops repeated webhook-ids, as the README asks, then processes it at most
// once, and no copy under a new id exists to be processed twice (newcomer review F9). Acknowledged,
// the notification is delivered and its scheduled retries send nothing; refused, they go on.
import { z } from "zod";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { deliverNotificationAttempt } from "../../notifications/deliver-notification-attempt";
import { recordAudit } from "../../audit/audit";
import { deliveryState } from "../delivery-state";

// A webhook endpoint's copy has a longer id than its original (`<id>_<endpoint id>`).
export const resendNotificationInput = z.object({ notificationId: z.string().min(1).max(128) });

export interface ResendResult {
  notificationId: string;
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

export async function resendNotification({ actor, input }: { actor: Actor; input: unknown }): Promise<ResendResult> {
  assertCan(actor, "payments:write");
  const { notificationId } = resendNotificationInput.parse(input);
  const original = await db().notification.findFirst({
    where: { id: notificationId, merchantId: actor.merchantId, mode: actor.mode },
    select: { id: true, url: true, status: true, attemptCount: true },
  });
  if (!original) throw new NotFoundError("Notification");
  await db().$transaction((tx) =>
    recordAudit(tx, { actor, action: "notification.resent", target: original.id, details: { url: original.url, stateBefore: deliveryState(original) } }),
  );
  const attempt = await deliverNotificationAttempt({ notificationId: original.id, attemptNumber: "resend" });
  return { notificationId: original.id, delivered: attempt.delivered, statusCode: attempt.statusCode, error: attempt.error };
}

/** The sentence shown next to the button. */
export function describeResend(result: ResendResult): string {
  const answer = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? "no answer");
  return result.delivered
    ? `Delivered again with webhook-id ${result.notificationId} (the receiver answered ${answer}).`
    : `Sent again with webhook-id ${result.notificationId}, but the receiver answered ${answer}; scheduled retries go on.`;
}
