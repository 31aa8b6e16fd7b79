import { db } from "../../db";

/** The merchant's id, name, notification addresses, notification-signing secret and allowed checkout origins. */
export async function getMerchantSettings({ merchantId }: { merchantId: string }) {
  return db().merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: { id: true, name: true, notificationSecret: true, defaultNotificationUrl: true, completionNotificationUrl: true, lifecycleNotificationUrl: true, allowedCheckoutOrigins: true },
  });
}
