// A new random password for a user who cannot sign in (forgotten password): used by an owner for a
// team member (lib/backoffice/actions/reset-team-member-password.ts) and by the operator CLI
// (`user reset-password <email>`). The temporary password is returned once to be handed over and is
// stored only as its argon2id hash; every open session of the user ends (session version + 1), so a
// reset also throws out whoever may have been using the old password.
// The temporary password must be changed at its first use and stops working after 24 hours (PCI DSS
// v4 8.3.5; review 3, M8).
import type { Tx } from "../db";
import { generateTemporaryPassword, hashPassword } from "../auth/password";

export const TEMPORARY_PASSWORD_LIFETIME_MS = 24 * 60 * 60_000;

export async function resetUserPassword({ tx, userId, now = new Date() }: { tx: Tx; userId: string; now?: Date }): Promise<{ temporaryPassword: string; expiresAt: Date }> {
  const temporaryPassword = generateTemporaryPassword();
  const expiresAt = new Date(now.getTime() + TEMPORARY_PASSWORD_LIFETIME_MS);
  await tx.user.update({
    where: { id: userId },
    data: { passwordHash: await hashPassword(temporaryPassword), sessionVersion: { increment: 1 }, mustChangePassword: true, temporaryPasswordExpiresAt: expiresAt },
    select: { id: true },
  });
  return { temporaryPassword, expiresAt };
}
