import { db } from "../db";
import { newId } from "../ids";
import { InvalidTotpCodeError } from "./confirm-totp-enrolment";
import { checkSignInThrottle, recordSignInAttempt } from "./sign-in-rate-limit";
import { openTotpSecret, verifyTotpCode } from "./totp";

export class TotpAttemptsExceededError extends Error {
  constructor() {
    super("Too many wrong codes. Wait 15 minutes and try again.");
    this.name = "TotpAttemptsExceededError";
  }
}

/**
 * Turns the second factor off; asks for a current code so a stolen session alone cannot do it.
 * Wrong codes count as failed sign-ins of the account, so they cannot be guessed at leisure.
 */
export async function disableTotp({ userId, code }: { userId: string; code: string }) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, merchantId: true, totpSecret: true, totpEnabledAt: true } });
  if (!user.totpEnabledAt || !user.totpSecret) return;
  if ((await checkSignInThrottle({ email: user.email, ipAddress: null })).limited) throw new TotpAttemptsExceededError();
  if (!(await verifyTotpCode(openTotpSecret(user.totpSecret), code))) {
    await recordSignInAttempt({ email: user.email, userId, ipAddress: null, succeeded: false });
    throw new InvalidTotpCodeError();
  }
  await db().$transaction([
    db().user.update({ where: { id: userId }, data: { totpEnabledAt: null, totpSecret: null }, select: { id: true } }),
    db().auditEntry.create({ data: { id: newId(), merchantId: user.merchantId, userId, action: "user.totp_disabled", target: userId } }),
  ]);
}
