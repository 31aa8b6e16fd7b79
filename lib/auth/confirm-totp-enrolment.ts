import { db } from "../db";
import { newId } from "../ids";
import { openTotpSecret, verifyTotpCode } from "./totp";

export class InvalidTotpCodeError extends Error {
  constructor() {
    super("That code is not correct or has expired. Enter the current code from your app.");
    this.name = "InvalidTotpCodeError";
  }
}

/** Turns the second factor on once the user proves their app holds the pending secret. */
export async function confirmTotpEnrolment({ userId, code }: { userId: string; code: string }) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { merchantId: true, totpSecret: true, totpEnabledAt: true } });
  if (user.totpEnabledAt) return;
  if (!user.totpSecret || !(await verifyTotpCode(openTotpSecret(user.totpSecret), code))) throw new InvalidTotpCodeError();
  await db().$transaction([
    db().user.update({ where: { id: userId }, data: { totpEnabledAt: new Date() }, select: { id: true } }),
    db().auditEntry.create({ data: { id: newId(), merchantId: user.merchantId, userId, action: "user.totp_enabled", target: userId } }),
  ]);
}
