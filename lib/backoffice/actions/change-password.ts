// A signed-in user changes their own password: the current password (and the current code when the
// second factor is on) first, through the same step-up check as the other credential changes, so a
// borrowed session cannot lock the owner out; wrong answers count against the sign-in throttle.
// The new password follows the rule every chosen password follows (lib/auth/password.ts). Every
// other session of the user ends (session version + 1); the caller re-issues its own cookie.
import { z } from "zod";
import { confirmIdentity } from "../../auth/confirm-identity";
import { hashPassword, newPasswordSchema, verifyPassword } from "../../auth/password";
import { db } from "../../db";
import { recordAudit } from "../../audit/audit";
import type { StepUpRequest } from "./step-up-request";

export const changePasswordInput = z
  .object({
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(200),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { path: ["confirmPassword"], message: "The two new passwords are not the same" });

/** Returns the user's new session version, for the caller's own session cookie. */
export async function changePassword({ actor, input, ipAddress = null }: StepUpRequest): Promise<number> {
  const { newPassword } = changePasswordInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  const current = await db().user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
  if (await verifyPassword(current.passwordHash, newPassword)) {
    throw new z.ZodError([{ code: "custom", path: ["newPassword"], message: "Choose a password other than your current one", input: newPassword }]);
  }
  const passwordHash = await hashPassword(newPassword);
  return db().$transaction(async (tx) => {
    const { sessionVersion } = await tx.user.update({
      where: { id: actor.userId },
      data: { passwordHash, sessionVersion: { increment: 1 }, mustChangePassword: false, temporaryPasswordExpiresAt: null },
      select: { sessionVersion: true },
    });
    await recordAudit(tx, { actor, action: "user.password_changed", target: actor.userId, details: { ip: ipAddress ?? "unknown" } });
    return sessionVersion;
  });
}
