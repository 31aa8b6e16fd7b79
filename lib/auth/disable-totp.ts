import { db } from "../db";
import { config } from "../env";
import { confirmIdentity, IdentityNotConfirmedError } from "./confirm-identity";
import { InvalidTotpCodeError } from "./confirm-totp-enrolment";
import { recordAuditEntry } from "../audit/audit";

export class TotpRequiredError extends Error {
  constructor() {
    super("Two-factor authentication is required for every back-office user here; it cannot be turned off.");
    this.name = "TotpRequiredError";
  }
}

export class TotpAttemptsExceededError extends Error {
  constructor() {
    super("Too many wrong codes. Wait 15 minutes and try again.");
    this.name = "TotpAttemptsExceededError";
  }
}

/**
 * Turns the second factor off; asks for the password and a current code (step-up) so a stolen
 * session alone cannot do it. Wrong answers count as failed sign-ins of the account
 * (lib/auth/confirm-identity.ts), so they cannot be guessed at leisure. A code already used (say,
 * for the sign-in of this session) does not count: it needs a fresh one. The user's other sessions
 * end (session version + 1); returns the new version for the caller's own session, or null when
 * the second factor was already off.
 */
export async function disableTotp({
  userId,
  input,
}: {
  userId: string;
  input: { currentPassword?: unknown; code?: unknown };
}): Promise<number | null> {
  // Where every user must have a second factor, it cannot be turned off (review 3, M8).
  if (config().backofficeMfaRequired) throw new TotpRequiredError();
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { merchantId: true, totpSecret: true, totpEnabledAt: true },
  });
  if (!user.totpEnabledAt || !user.totpSecret) return null;
  try {
    await confirmIdentity({ userId, input: { currentPassword: input.currentPassword, currentCode: input.code } });
  } catch (error) {
    // The code field's own messages: a wrong code, or the lock-out after too many.
    if (error instanceof IdentityNotConfirmedError && error.reason === "limited") throw new TotpAttemptsExceededError();
    if (error instanceof IdentityNotConfirmedError && error.reason === "code") throw new InvalidTotpCodeError();
    throw error;
  }
  return db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId, totpEnabledAt: { not: null } },
      data: { totpEnabledAt: null, totpSecret: null, sessionVersion: { increment: 1 } },
    });
    if (count !== 1) return null;
    await recordAuditEntry(tx, { merchantId: user.merchantId, userId, action: "user.totp_disabled", target: userId });
    const { sessionVersion } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } });
    return sessionVersion;
  });
}
