// The invited person's side (issue 28): the invitation link's token, their name and a password of
// their own. The token is spent in the transaction that creates the user: the link works once. It
// works only while its sender is still a member who may manage the team (security review 4, M2):
// however their role changed, their invitations end with it.
import { z } from "zod";
import { db } from "../../db";
import { newPasswordSchema } from "../../auth/password";
import { recordAuditEntry } from "../../audit/audit";
import { createUser } from "../../users/create-user";
import { InvalidUserTokenError, spendUserToken } from "../../users/user-tokens";
import { roleCan } from "../../auth/roles";

export const acceptInvitationInput = z.object({
  token: z.string(),
  name: z.string().trim().min(1, "Enter your name").max(100, "Use at most 100 characters"),
  password: newPasswordSchema,
});

export async function acceptInvitation({ input, now = new Date() }: { input: unknown; now?: Date }) {
  const { token, name, password } = acceptInvitationInput.parse(input);
  return db().$transaction(async (tx) => {
    const invitation = await spendUserToken(tx, { token, kind: "invitation", now });
    const sender = invitation.createdByUserId
      ? await tx.user.findFirst({ where: { id: invitation.createdByUserId, merchantId: invitation.merchantId }, select: { role: true } })
      : null;
    // Thrown inside the transaction: the token is not spent, and stays refused for the same reason.
    if (!sender || !roleCan(sender.role, "team:write")) throw new InvalidUserTokenError();
    const user = await createUser({ merchantId: invitation.merchantId, email: invitation.email, name, password, role: invitation.role ?? "VIEWER", tx });
    await recordAuditEntry(tx, {
      merchantId: invitation.merchantId,
      userId: user.id,
      action: "team.invitation_accepted",
      target: user.id,
      details: { email: user.email, role: user.role, invitedBy: invitation.createdByUserId },
    });
    return user;
  });
}
