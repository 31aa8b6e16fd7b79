import { db } from "../db";
import { newId } from "../ids";
import { InvalidTotpCodeError } from "./confirm-totp-enrolment";
import { checkSignInThrottle, recordSignInAttempt } from "./sign-in-rate-limit";
import { matchTotpStep, openTotpSecret, totpStepUnused } from "./totp";

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
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, merchantId: true, totpSecret: true, totpEnabledAt: true, totpLastUsedStep: true },
  });
  if (!user.totpEnabledAt || !user.totpSecret) return;
  if ((await checkSignInThrottle({ email: user.email, ipAddress: null })).limited) throw new TotpAttemptsExceededError();
  // A code already used (say, for the sign-in of this session) does not count: it needs a fresh one.
  const step = await matchTotpStep(openTotpSecret(user.totpSecret), code, user.totpLastUsedStep);
  const disabled =
    step !== null &&
    (await db().$transaction(async (tx) => {
      const { count } = await tx.user.updateMany({
        where: { id: userId, totpEnabledAt: { not: null }, ...totpStepUnused(step) },
        data: { totpEnabledAt: null, totpSecret: null, totpLastUsedStep: step },
      });
      if (count !== 1) return false;
      await tx.auditEntry.create({ data: { id: newId(), merchantId: user.merchantId, userId, action: "user.totp_disabled", target: userId } });
      return true;
    }));
  if (!disabled) {
    await recordSignInAttempt({ email: user.email, userId, ipAddress: null, succeeded: false });
    throw new InvalidTotpCodeError();
  }
}
