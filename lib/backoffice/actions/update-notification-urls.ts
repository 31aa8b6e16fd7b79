import { db } from "../../db";
import { config } from "../../env";
import { assertCan, type Actor } from "../../auth/actor";
import { recordAudit } from "../audit";
import { notificationUrlsSchema } from "../notification-url";

/** Saves the merchant's three notification addresses; an empty field clears one. */
export async function updateNotificationUrls({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "settings:write");
  const urls = notificationUrlsSchema({ allowHttp: !config().isProduction }).parse(input);
  return db().$transaction(async (tx) => {
    const before = await tx.merchant.findUniqueOrThrow({
      where: { id: actor.merchantId },
      select: { defaultNotificationUrl: true, completionNotificationUrl: true, lifecycleNotificationUrl: true },
    });
    await tx.merchant.update({ where: { id: actor.merchantId }, data: urls, select: { id: true } });
    await recordAudit(tx, { actor, action: "settings.notification_urls.updated", target: actor.merchantId, details: { before, after: urls } });
    return urls;
  });
}
