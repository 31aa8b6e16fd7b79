// The reset link's page (issue 28): the token and a new password. The token is spent in the
// transaction that changes the password; every session of the user ends (session version + 1), and
// a temporary password's must-change flag is cleared (the person chose this one).
import { z } from "zod";
import { db } from "../../db";
import { hashPassword, newPasswordSchema } from "../../auth/password";
import { recordAuditEntry } from "../../audit/audit";
import { InvalidUserTokenError, spendUserToken } from "../../users/user-tokens";

export const resetPasswordWithTokenInput = z.object({ token: z.string(), password: newPasswordSchema });

export async function resetPasswordWithToken({ input, now = new Date() }: { input: unknown; now?: Date }) {
  const { token, password } = resetPasswordWithTokenInput.parse(input);
  const passwordHash = await hashPassword(password);
  return db().$transaction(async (tx) => {
    const reset = await spendUserToken(tx, { token, kind: "password_reset", now });
    // The user may have been removed from the team since the link was sent: then the link is no good.
    const changed = await tx.user.updateMany({
      where: { id: reset.userId ?? "", email: reset.email },
      data: { passwordHash, sessionVersion: { increment: 1 }, mustChangePassword: false, temporaryPasswordExpiresAt: null },
    });
    if (changed.count === 0) throw new InvalidUserTokenError();
    const user = await tx.user.findUniqueOrThrow({ where: { id: reset.userId! }, select: { id: true, email: true, merchantId: true } });
    await recordAuditEntry(tx, { merchantId: user.merchantId, userId: user.id, action: "user.password_reset_by_link", target: user.id });
    return user;
  });
}
