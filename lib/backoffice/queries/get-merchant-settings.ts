import { db } from "../../db";

/**
 * The merchant's id, name, notification addresses and allowed checkout origins, and when its signing
 * secrets end (the secrets themselves only through the audited, step-up reveal).
 */
export async function getMerchantSettings({ merchantId }: { merchantId: string }) {
  return db().merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: {
      signingSecrets: {
        where: { OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true, expiresAt: true },
      },
      id: true,
      name: true,
      defaultNotificationUrl: true,
      completionNotificationUrl: true,
      lifecycleNotificationUrl: true,
      allowedCheckoutOrigins: true,
    },
  });
}
