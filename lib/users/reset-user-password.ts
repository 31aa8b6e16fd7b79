// A new random password for a user who cannot sign in (forgotten password): used by an owner for a
// team member (lib/backoffice/actions/reset-team-member-password.ts) and by the operator CLI
// (`user reset-password <email>`). The temporary password is returned once to be handed over and is
// stored only as its argon2id hash; every open session of the user ends (session version + 1), so a
// reset also throws out whoever may have been using the old password.
import type { Tx } from "../db";
import { generateTemporaryPassword, hashPassword } from "../auth/password";

export async function resetUserPassword({ tx, userId }: { tx: Tx; userId: string }): Promise<{ temporaryPassword: string }> {
  const temporaryPassword = generateTemporaryPassword();
  await tx.user.update({
    where: { id: userId },
    data: { passwordHash: await hashPassword(temporaryPassword), sessionVersion: { increment: 1 } },
    select: { id: true },
  });
  return { temporaryPassword };
}
