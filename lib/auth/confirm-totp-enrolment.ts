import { db } from "../db";
import { matchTotpStep, openTotpSecret, totpStepUnused } from "./totp";
import { issueRecoveryCodes } from "./recovery-codes";
import { recordAuditEntry } from "../audit/audit";

export class InvalidTotpCodeError extends Error {
  constructor() {
    super("That code is not correct or has expired. Enter the current code from your app.");
    this.name = "InvalidTotpCodeError";
  }
}

/**
 * Turns the second factor on once the user proves their app holds the pending secret, and issues
 * ten recovery codes (shown once). The user's other sessions end (session version + 1); returns the
 * new version for the caller's own session and the codes, or null when it was on already.
 */
export async function confirmTotpEnrolment({ userId, code }: { userId: string; code: string }) {
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { merchantId: true, totpSecret: true, totpEnabledAt: true, totpLastUsedStep: true },
  });
  if (user.totpEnabledAt) return null;
  const step = user.totpSecret ? await matchTotpStep(await openTotpSecret(user.totpSecret, userId), code, user.totpLastUsedStep) : null;
  if (step === null) throw new InvalidTotpCodeError();
  return db().$transaction(async (tx) => {
    // The confirming code is used up too: it cannot then sign in a second time.
    const { count } = await tx.user.updateMany({
      where: { id: userId, totpEnabledAt: null, ...totpStepUnused(step) },
      data: { totpEnabledAt: new Date(), totpLastUsedStep: step, sessionVersion: { increment: 1 } },
    });
    if (count !== 1) throw new InvalidTotpCodeError();
    await recordAuditEntry(tx, { merchantId: user.merchantId, userId, action: "user.totp_enabled", target: userId });
    const recoveryCodes = await issueRecoveryCodes({ tx, userId });
    const { sessionVersion } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } });
    return { sessionVersion, recoveryCodes };
  });
}
