// Part of a card-data key rotation (`cli cards rotate-key`): back-office users' TOTP secrets are
// sealed under a key derived from CARD_DATA_KEY (lib/auth/totp.ts), so they are re-sealed under
// the current key too; otherwise removing the old key would lock those users out of sign-in.
import { db } from "../db";
import { cardKeyMaterial } from "../cards/card-encryption";
import { openTotpSecret, sealTotpSecret } from "../auth/totp";

export async function resealTotpSecrets(): Promise<{ resealed: number; remaining: number }> {
  const keyId = cardKeyMaterial().id;
  const current = `totp1:${keyId}:`;
  const users = await db().user.findMany({ where: { totpSecret: { not: null } }, select: { id: true, totpSecret: true } });
  let resealed = 0;
  for (const user of users) {
    const sealed = user.totpSecret!;
    if (sealed.startsWith(current)) continue;
    const secret = await openTotpSecret(sealed, user.id);
    // openTotpSecret may have re-sealed an old-format secret already: the update below is
    // conditional on the value read, so whichever write came second finds nothing to change.
    const updated = await db().user.updateMany({ where: { id: user.id, totpSecret: sealed }, data: { totpSecret: sealTotpSecret(secret, user.id) } });
    resealed += updated.count;
  }
  const remaining = await db().user.count({ where: { totpSecret: { not: null }, NOT: { totpSecret: { startsWith: current } } } });
  return { resealed, remaining };
}
