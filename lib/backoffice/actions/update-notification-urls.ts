import { db } from "../../db";
import { config } from "../../env";
import { assertCan, type Actor } from "../../auth/actor";
import { recordAudit } from "../../audit/audit";
import { notificationUrlsSchema } from "../notification-url";
import { confirmIdentity } from "../../auth/confirm-identity";
import { addressColumns, addressesOf } from "../../notifications/resolve-notification-url";
import { assertFormMode } from "../form-mode";

/**
 * Saves the merchant's three notification addresses of the mode the back office shows (test mode
 * has its own); an empty field clears one. Asks for the password
 * again (step-up): an address decides who receives customer emails, amounts and masked card numbers,
 * so a session cookie alone must not move them (review 3, M3).
 */
export async function updateNotificationUrls({
  actor,
  input,
  ipAddress = null,
}: {
  actor: Actor;
  input: unknown;
  ipAddress?: string | null;
}) {
  assertCan(actor, "settings:write");
  assertFormMode(actor, input);
  const urls = notificationUrlsSchema({ allowHttp: !config().isProduction }).parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const row = await tx.merchant.findUniqueOrThrow({
      where: { id: actor.merchantId },
      select: {
        defaultNotificationUrl: true,
        completionNotificationUrl: true,
        lifecycleNotificationUrl: true,
        testDefaultNotificationUrl: true,
        testCompletionNotificationUrl: true,
        testLifecycleNotificationUrl: true,
      },
    });
    const before = addressesOf(row, actor.mode);
    await tx.merchant.update({ where: { id: actor.merchantId }, data: addressColumns(urls, actor.mode), select: { id: true } });
    await recordAudit(tx, {
      actor,
      action: "settings.notification_urls.updated",
      target: actor.merchantId,
      details: { mode: actor.mode, before, after: urls },
    });
    return urls;
  });
}
