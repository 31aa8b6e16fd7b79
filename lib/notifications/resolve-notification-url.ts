// Where a notification goes: the request's notificationurl; else the hosted integration's address
// for its purpose, then its default; else the merchant's address for the purpose, then its default;
// else, for a follow-up, the address the payment itself was started with (`fallbackUrl`).
import { db, type Tx } from "../db";

export type NotificationPurpose = "completion" | "lifecycle" | "default";

interface Addresses {
  defaultNotificationUrl: string | null;
  completionNotificationUrl: string | null;
  lifecycleNotificationUrl: string | null;
}

function pick(addresses: Addresses | null | undefined, purpose: NotificationPurpose): string | null {
  if (!addresses) return null;
  const specific =
    purpose === "completion" ? addresses.completionNotificationUrl : purpose === "lifecycle" ? addresses.lifecycleNotificationUrl : null;
  return specific ?? addresses.defaultNotificationUrl;
}

const ADDRESS_FIELDS = { defaultNotificationUrl: true, completionNotificationUrl: true, lifecycleNotificationUrl: true } as const;

export async function resolveNotificationUrl({
  merchantId,
  requestedUrl,
  hostedIntegrationId,
  purpose,
  fallbackUrl,
  tx,
}: {
  merchantId: string;
  requestedUrl?: string | null;
  /** Used when nothing is configured: the payment's own initialization (or MIT request) address. */
  fallbackUrl?: string | null;
  hostedIntegrationId?: string | null;
  purpose: NotificationPurpose;
  tx?: Tx;
}): Promise<string | null> {
  if (requestedUrl) return requestedUrl;
  const client = tx ?? db();
  if (hostedIntegrationId) {
    const hosted = await client.hostedIntegration.findFirst({ where: { id: hostedIntegrationId, merchantId }, select: ADDRESS_FIELDS });
    const url = pick(hosted, purpose);
    if (url) return url;
  }
  const merchant = await client.merchant.findUnique({ where: { id: merchantId }, select: ADDRESS_FIELDS });
  return pick(merchant, purpose) ?? fallbackUrl ?? null;
}
