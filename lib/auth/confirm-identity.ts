// Step-up: the actions that hand out or change credentials (creating or rolling API keys, turning the
// second factor on or off, changing the team) ask for the signed-in user's password again, and the
// one-time code when the user has the second factor on, so a session cookie alone (a borrowed laptop,
// a stolen cookie) cannot mint an API key or take over the account. Wrong answers are limited per user
// (five in 15 minutes), so the password cannot be guessed here instead; they are counted apart from
// sign-ins, which anyone who knows the email can fail, so a stranger cannot lock an owner out of
// step-up (security review 4, L2). The client address is recorded with the attempt.
import { z } from "zod";
import { db } from "../db";
import { verifyPassword } from "./password";
import { reserveSignInAttempt, settleSignInAttempt } from "./sign-in-rate-limit";
import { matchTotpStep, openTotpSecret, totpStepUnused } from "./totp";

export const confirmIdentityInput = z.object({
  currentPassword: z.string({ error: "Enter your password to confirm" }).min(1, "Enter your password to confirm").max(200),
  currentCode: z
    .string()
    .optional()
    .transform((value) => value?.replace(/\s+/g, "") || undefined),
});

export class IdentityNotConfirmedError extends Error {
  constructor(
    message: string,
    readonly field: "currentPassword" | "currentCode",
    readonly reason: "limited" | "password" | "code" = field === "currentCode" ? "code" : "password",
  ) {
    super(message);
    this.name = "IdentityNotConfirmedError";
  }
}

/**
 * Checks `currentPassword` (and `currentCode` when the user has TOTP on; the code is used up) from
 * the form input; throws IdentityNotConfirmedError or a zod error otherwise.
 */
export async function confirmIdentity({ userId, input, ipAddress = null }: { userId: string; input: unknown; ipAddress?: string | null }): Promise<void> {
  const { currentPassword, currentCode } = confirmIdentityInput.parse(input);
  const user = await db().user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, email: true, passwordHash: true, totpSecret: true, totpEnabledAt: true, totpLastUsedStep: true },
  });
  const reservation = await reserveSignInAttempt({ email: user.email, ipAddress, userId: user.id, stepUp: true });
  if (reservation.limited) throw new IdentityNotConfirmedError("Too many failed attempts. Wait 15 minutes and try again.", "currentPassword", "limited");
  const fail = async (message: string, field: "currentPassword" | "currentCode") => {
    await settleSignInAttempt({ attemptId: reservation.attemptId, outcome: "failed", userId: user.id });
    return new IdentityNotConfirmedError(message, field);
  };
  if (!(await verifyPassword(user.passwordHash, currentPassword))) throw await fail("Your password is not correct.", "currentPassword");
  if (user.totpEnabledAt && user.totpSecret) {
    if (!currentCode) throw await fail("Enter the current code from your authenticator app.", "currentCode");
    const step = await matchTotpStep(await openTotpSecret(user.totpSecret, user.id), currentCode, user.totpLastUsedStep);
    const claimed =
      step !== null && (await db().user.updateMany({ where: { id: user.id, ...totpStepUnused(step) }, data: { totpLastUsedStep: step } })).count === 1;
    if (!claimed) throw await fail("That code is not correct or has expired. Enter the current code.", "currentCode");
  }
  // A confirmation is not a sign-in: the reserved attempt is dropped rather than kept as a success.
  await settleSignInAttempt({ attemptId: reservation.attemptId, outcome: "not-counted" });
}
