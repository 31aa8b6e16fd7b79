// The credentials check behind the sign-in form: email + password (argon2id), then the one-time
// code when the user turned the second factor on, all behind the sign-in throttle. Every outcome
// for a known user goes into the merchant's audit log with the client address the throttle counts
// (an unknown email has no merchant to log it for; its attempt row is still kept for the throttle).
import { z } from "zod";
import { recordAuditEntry } from "../audit/audit";
import { db } from "../db";
import { log } from "../observability/logger";
import { verifyPassword } from "./password";
import { reserveSignInAttempt, settleSignInAttempt } from "./sign-in-rate-limit";
import { matchTotpStep, openTotpSecret, totpStepUnused } from "./totp";
import { RECOVERY_CODE_PATTERN, redeemRecoveryCode } from "./recovery-codes";
import type { SignInErrorCode } from "./sign-in-errors";

export const signInInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address")),
  password: z.string().min(1, "Enter your password").max(200),
  totp: z
    .string()
    .optional()
    .transform((value) => value?.replace(/\s+/g, "") || undefined),
});

export { SIGN_IN_ERRORS, type SignInErrorCode } from "./sign-in-errors";

export class SignInError extends Error {
  constructor(readonly code: SignInErrorCode) {
    super(code);
    this.name = "SignInError";
  }
}

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  merchantId: string;
  /** Goes into the session token; a later change of User.sessionVersion ends that session. */
  sessionVersion: number;
}

// A real hash to verify against when the email is unknown, so both cases take the same time.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$X9hY5yfoh1+D9LxIdLj5dg$5qfrg25mg+kchpgGLB4Zej6HkiXPmpmydJYCm83Xi3E";

/** Returns the user, or throws SignInError with the reason to show. */
export async function authenticateUser(options: { email: string; password: string; totp?: string; ipAddress: string | null }): Promise<AuthenticatedUser> {
  const parsed = signInInput.safeParse(options);
  if (!parsed.success) throw new SignInError("INVALID_CREDENTIALS");
  const { email, password, totp } = parsed.data;
  const ipAddress = options.ipAddress;

  // The attempt is recorded as a failure before the password is checked, atomically with the count
  // (lib/auth/sign-in-rate-limit.ts), so parallel guesses cannot get past the limit.
  const reservation = await reserveSignInAttempt({ email, ipAddress });
  if (reservation.limited) {
    auditInBackground(async () => {
      const target = await db().user.findUnique({ where: { email }, select: { id: true, merchantId: true } });
      if (target) await auditSignIn({ user: target, email, ipAddress, outcome: "RATE_LIMITED" });
    });
    throw new SignInError("RATE_LIMITED");
  }
  const { attemptId } = reservation;

  const user = await db().user.findUnique({
    where: { email },
    select: {
      id: true,
      email: true,
      name: true,
      merchantId: true,
      passwordHash: true,
      totpSecret: true,
      totpEnabledAt: true,
      totpLastUsedStep: true,
      sessionVersion: true,
      mustChangePassword: true,
      temporaryPasswordExpiresAt: true,
    },
  });
  const passwordOk = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !passwordOk) {
    await settleSignInAttempt({ attemptId, outcome: "failed", userId: user?.id ?? null });
    if (user) auditInBackground(() => auditSignIn({ user, email, ipAddress, outcome: "INVALID_CREDENTIALS" }));
    throw new SignInError("INVALID_CREDENTIALS");
  }
  // A temporary password (a reset) works until it expires, and then only to set a new one (the
  // back office sends a user with mustChangePassword to that form first; review 3, M8).
  if (user.mustChangePassword && user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt <= new Date()) {
    await settleSignInAttempt({ attemptId, outcome: "failed", userId: user.id });
    auditInBackground(() => auditSignIn({ user, email, ipAddress, outcome: "TEMPORARY_PASSWORD_EXPIRED" }));
    throw new SignInError("TEMPORARY_PASSWORD_EXPIRED");
  }
  if (user.totpEnabledAt && user.totpSecret) {
    // The right password without a code is not a failure: the form asks for the code next.
    if (!totp) {
      await settleSignInAttempt({ attemptId, outcome: "not-counted" });
      throw new SignInError("TOTP_REQUIRED");
    }
    // A code already used (here or on the account page) is refused like a wrong one; the step is
    // claimed with a conditional update so concurrent sign-ins with one code cannot both pass. A
    // recovery code (lost authenticator) is used up the same way.
    const recovery = RECOVERY_CODE_PATTERN.test(totp.toLowerCase()) && (await redeemRecoveryCode({ userId: user.id, code: totp }));
    const step = recovery ? null : await matchTotpStep(await openTotpSecret(user.totpSecret, user.id), totp, user.totpLastUsedStep);
    const claimed =
      recovery ||
      (step !== null &&
        (await db().user.updateMany({ where: { id: user.id, ...totpStepUnused(step) }, data: { totpLastUsedStep: step } })).count === 1);
    if (recovery) auditInBackground(() => recordAuditEntry(db(), { merchantId: user.merchantId, userId: user.id, action: "user.recovery_code_used", target: user.id, details: { ip: ipAddress ?? "unknown" } }));
    if (!claimed) {
      await settleSignInAttempt({ attemptId, outcome: "failed", userId: user.id });
      auditInBackground(() => auditSignIn({ user, email, ipAddress, outcome: "INVALID_TOTP" }));
      throw new SignInError("INVALID_TOTP");
    }
  }
  await settleSignInAttempt({ attemptId, outcome: "succeeded", userId: user.id });
  await db().user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() }, select: { id: true } });
  await auditSignIn({ user, email, ipAddress, outcome: "OK" });
  return { id: user.id, email: user.email, name: user.name, merchantId: user.merchantId, sessionVersion: user.sessionVersion };
}

/**
 * A failure's audit row is written after the answer, not before: awaiting it would make a wrong
 * password for a known email slower than for an unknown one (which has no merchant to log for),
 * and the timing would tell which emails have accounts.
 */
function auditInBackground(work: () => Promise<void>): void {
  work().catch((error: unknown) => log("auth").error({ err: error }, "could not record a failed sign-in in the audit log"));
}

/** One audit row per decided sign-in of a known user: who, from which address, and why it failed. */
async function auditSignIn(options: { user: { id: string; merchantId: string }; email: string; ipAddress: string | null; outcome: SignInErrorCode | "OK" }) {
  const succeeded = options.outcome === "OK";
  await recordAuditEntry(db(), {
    merchantId: options.user.merchantId,
    userId: options.user.id,
    action: succeeded ? "user.signed_in" : "user.sign_in_failed",
    target: options.user.id,
    details: { email: options.email, ip: options.ipAddress ?? "unknown", ...(succeeded ? {} : { reason: options.outcome }) },
  });
}
