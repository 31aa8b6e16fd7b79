// Where a notification goes: the request's notificationurl; else the hosted integration's address
// for its purpose, then its default; else the merchant's address for the purpose, then its default;
// else, for a follow-up, the address the payment itself was started with (`fallbackUrl`). The
// configured addresses are those of the notification's mode: test mode has addresses of its own.
import { db, type Tx } from "../db";
import { SettingsCache } from "../db/settings-cache";
import type { Mode } from "../mode";

export type NotificationPurpose = "completion" | "lifecycle" | "default";

type Addresses = {
  defaultNotificationUrl: string | null;
  completionNotificationUrl: string | null;
  lifecycleNotificationUrl: string | null;
};

function pick(addresses: Addresses | null | undefined, purpose: NotificationPurpose): string | null {
  if (!addresses) return null;
  const specific =
    purpose === "completion" ? addresses.completionNotificationUrl : purpose === "lifecycle" ? addresses.lifecycleNotificationUrl : null;
  return specific ?? addresses.defaultNotificationUrl;
}

/** The six address columns of a merchant or hosted-integration row, for a Prisma select. */
export const ADDRESS_COLUMNS = {
  defaultNotificationUrl: true,
  completionNotificationUrl: true,
  lifecycleNotificationUrl: true,
  testDefaultNotificationUrl: true,
  testCompletionNotificationUrl: true,
  testLifecycleNotificationUrl: true,
} as const;

type AddressColumns = Addresses & {
  testDefaultNotificationUrl: string | null;
  testCompletionNotificationUrl: string | null;
  testLifecycleNotificationUrl: string | null;
};

/** The addresses of `mode` in a merchant or hosted-integration row (the unprefixed columns are live mode's). */
export function addressesOf(row: AddressColumns, mode: Mode): Addresses {
  return mode === "live"
    ? { defaultNotificationUrl: row.defaultNotificationUrl, completionNotificationUrl: row.completionNotificationUrl, lifecycleNotificationUrl: row.lifecycleNotificationUrl }
    : {
        defaultNotificationUrl: row.testDefaultNotificationUrl,
        completionNotificationUrl: row.testCompletionNotificationUrl,
        lifecycleNotificationUrl: row.testLifecycleNotificationUrl,
      };
}

/** The columns that hold `mode`'s addresses, for writes. */
export function addressColumns(addresses: Addresses, mode: Mode): Partial<AddressColumns> {
  return mode === "live"
    ? addresses
    : {
        testDefaultNotificationUrl: addresses.defaultNotificationUrl,
        testCompletionNotificationUrl: addresses.completionNotificationUrl,
        testLifecycleNotificationUrl: addresses.lifecycleNotificationUrl,
      };
}

/** Merchants' and hosted integrations' address rows, for `cached` look-ups (dropped at every change of either). */
const addressCache = ((globalThis as unknown as { __cpsAddressCache?: SettingsCache<AddressColumns | null> }).__cpsAddressCache ??=
  new SettingsCache());

export async function resolveNotificationUrl({
  merchantId,
  mode,
  requestedUrl,
  hostedIntegrationId,
  purpose,
  fallbackUrl,
  tx,
  cached,
}: {
  merchantId: string;
  /** The mode of what the notification reports: its configured addresses are used. */
  mode: Mode;
  requestedUrl?: string | null;
  /** Used when nothing is configured: the payment's own initialization (or MIT request) address. */
  fallbackUrl?: string | null;
  hostedIntegrationId?: string | null;
  purpose: NotificationPurpose;
  tx?: Tx;
  /** Read the addresses from this process's settings cache (lib/db/settings-cache.ts; initdynamic). Without `tx` only. */
  cached?: boolean;
}): Promise<string | null> {
  if (requestedUrl) return requestedUrl;
  const client = tx ?? db();
  const read = (key: string, load: () => Promise<AddressColumns | null>) => (cached && !tx ? addressCache.get(key, load) : load());
  if (hostedIntegrationId) {
    const hosted = await read(`hosted\n${merchantId}\n${hostedIntegrationId}`, () =>
      client.hostedIntegration.findFirst({ where: { id: hostedIntegrationId, merchantId }, select: ADDRESS_COLUMNS }),
    );
    const url = pick(hosted && addressesOf(hosted, mode), purpose);
    if (url) return url;
  }
  const merchant = await read(`merchant\n${merchantId}`, () => client.merchant.findUnique({ where: { id: merchantId }, select: ADDRESS_COLUMNS }));
  return pick(merchant && addressesOf(merchant, mode), purpose) ?? fallbackUrl ?? null;
}
