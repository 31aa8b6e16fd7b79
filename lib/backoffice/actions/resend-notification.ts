// "Resend" on the payment page: the stored notification is sent again as a new notification with
// the same URL and the same JSON body, through the regular delivery function (immediate attempt,
// then the spec's retry schedule). It gets a new webhook-id on purpose: a merchant who presses
// resend wants it processed, and a receiver that drops repeated webhook-ids would drop a copy.
import { z } from "zod";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { dispatchNotification, enqueueNotification } from "../../notifications/enqueue-notification";
import { recordAudit } from "../audit";

export const resendNotificationInput = z.object({ notificationId: z.string().min(1).max(64) });

export async function resendNotification({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "payments:write");
  const { notificationId } = resendNotificationInput.parse(input);
  const newId = await db().$transaction(async (tx) => {
    const original = await tx.notification.findFirst({
      where: { id: notificationId, merchantId: actor.merchantId },
      select: { id: true, paymentId: true, kind: true, url: true, body: true },
    });
    if (!original) throw new NotFoundError("Notification");
    const id = await enqueueNotification({ merchantId: actor.merchantId, paymentId: original.paymentId, kind: original.kind, url: original.url, body: JSON.parse(original.body) as object, tx });
    await recordAudit(tx, { actor, action: "notification.resent", target: original.id, details: { newNotificationId: id, url: original.url } });
    return id;
  });
  await dispatchNotification(newId);
  return { notificationId: newId };
}
