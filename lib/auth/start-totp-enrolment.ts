import QRCode from "qrcode";
import { db } from "../db";
import { confirmIdentity } from "./confirm-identity";
import { newTotpSecret, sealTotpSecret, totpUri } from "./totp";

/**
 * Gives the user a new secret to scan, after asking for their password again (step-up: a session
 * cookie alone cannot bind someone else's authenticator to the account). It is saved as pending
 * (totpEnabledAt stays null) and only counts at sign-in after the user confirms it with a code, so
 * a half-done setup cannot lock anyone out. The last used step belongs to the old secret's codes and
 * starts over with the new one.
 */
export async function startTotpEnrolment({ userId, input }: { userId: string; input: unknown }) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, totpEnabledAt: true } });
  if (user.totpEnabledAt) throw new Error("Two-factor authentication is already on");
  await confirmIdentity({ userId, input });
  const secret = newTotpSecret();
  await db().user.update({ where: { id: userId }, data: { totpSecret: sealTotpSecret(secret, userId), totpLastUsedStep: null }, select: { id: true } });
  const uri = totpUri(secret, user.email);
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }) };
}
