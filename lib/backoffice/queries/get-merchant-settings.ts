import { db } from "../../db";
import type { Mode } from "../../mode";
import { addressesOf } from "../../notifications/resolve-notification-url";

/**
 * The merchant's id, name, notification addresses of `mode` (test mode has its own), allowed
 * checkout origins, who may act in live mode, and when its signing secrets end (the secrets
 * themselves only through the audited, step-up reveal).
 */
export async function getMerchantSettings({ merchantId, mode }: { merchantId: string; mode: Mode }) {
  const {
    testDefaultNotificationUrl,
    testCompletionNotificationUrl,
    testLifecycleNotificationUrl,
    defaultNotificationUrl,
    completionNotificationUrl,
    lifecycleNotificationUrl,
    ...merchant
  } = await db().merchant.findUniqueOrThrow({
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
      testDefaultNotificationUrl: true,
      testCompletionNotificationUrl: true,
      testLifecycleNotificationUrl: true,
      allowedCheckoutOrigins: true,
      liveModeMinRole: true,
    },
  });
  const addresses = addressesOf(
    {
      defaultNotificationUrl,
      completionNotificationUrl,
      lifecycleNotificationUrl,
      testDefaultNotificationUrl,
      testCompletionNotificationUrl,
      testLifecycleNotificationUrl,
    },
    mode,
  );
  return { ...merchant, ...addresses, mode };
}
