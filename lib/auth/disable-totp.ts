import { db } from "../db";
import { newId } from "../ids";
import { InvalidTotpCodeError } from "./confirm-totp-enrolment";
import { openTotpSecret, verifyTotpCode } from "./totp";

/** Turns the second factor off; asks for a current code so a stolen session alone cannot do it. */
export async function disableTotp({ userId, code }: { userId: string; code: string }) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { merchantId: true, totpSecret: true, totpEnabledAt: true } });
  if (!user.totpEnabledAt || !user.totpSecret) return;
  if (!(await verifyTotpCode(openTotpSecret(user.totpSecret), code))) throw new InvalidTotpCodeError();
  await db().$transaction([
    db().user.update({ where: { id: userId }, data: { totpEnabledAt: null, totpSecret: null }, select: { id: true } }),
    db().auditEntry.create({ data: { id: newId(), merchantId: user.merchantId, userId, action: "user.totp_disabled", target: userId } }),
  ]);
}
