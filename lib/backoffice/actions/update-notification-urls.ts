import { db } from "../../db";
import { config } from "../../env";
import { assertCan } from "../../auth/actor";
import { recordAudit } from "../../audit/audit";
import { notificationUrlsSchema } from "../notification-url";
import { confirmIdentity } from "../../auth/confirm-identity";
import { addressColumns, addressesOf } from "../../notifications/resolve-notification-url";
import { assertFormMode } from "../form-mode";
import { ADDRESS_COLUMNS } from "../mode-addresses";
import type { StepUpRequest } from "./step-up-request";

/**
 * Saves the merchant's three notification addresses of the mode the back office shows (test mode
 * has its own); an empty field clears one. Asks for the password
 * again (step-up): an address decides who receives customer emails, amounts and masked card numbers,
 * so a session cookie alone must not move them (review 3, M3).
 */
export async function updateNotificationUrls({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "settings:write");
  assertFormMode(actor, input);
  const urls = notificationUrlsSchema({ allowHttp: !config().isProduction }).parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const row = await tx.merchant.findUniqueOrThrow({
      where: { id: actor.merchantId },
      select: ADDRESS_COLUMNS,
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
