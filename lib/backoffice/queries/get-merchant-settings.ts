import { db } from "../../db";
import type { Mode } from "../../mode";
import { ADDRESS_COLUMNS, withModeAddresses } from "../mode-addresses";

/**
 * The merchant's id, name, notification addresses of `mode` (test mode has its own), allowed
 * checkout origins, who may act in live mode, and when its signing secrets end (the secrets
 * themselves only through the audited, step-up reveal).
 */
export async function getMerchantSettings({ merchantId, mode }: { merchantId: string; mode: Mode }) {
  const merchant = await db().merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: {
      signingSecrets: {
        where: { OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
        orderBy: { createdAt: "desc" },
        select: { createdAt: true, expiresAt: true },
      },
      id: true,
      name: true,
      ...ADDRESS_COLUMNS,
      allowedCheckoutOrigins: true,
      liveModeMinRole: true,
    },
  });
  return { ...withModeAddresses(merchant, mode), mode };
}
