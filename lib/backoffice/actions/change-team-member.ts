// Owners change a team member's role or remove them. The account always keeps at least one owner,
// so nobody can lock the merchant out of its own keys and team. The owner confirms with their own
// password (step-up), and the member's open sessions end (their session version goes up). Removed,
// or left without the team permission, the member's pending invitations are revoked with the change
// (security review 4, M2): an owner on the way out cannot leave a way back in.
import { z } from "zod";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db, type Tx } from "../../db";
import { roleCan } from "../../auth/roles";
import { revokePendingInvitations } from "../../users/revoke-invitations";
import { UserFacingError } from "../action-result";
import { recordAudit } from "../../audit/audit";

export const changeTeamMemberInput = z.discriminatedUnion("change", [
  z.object({ change: z.literal("role"), userId: z.string().min(1).max(64), role: z.enum(["OWNER", "DEVELOPER", "VIEWER"], { error: "Choose a role" }) }),
  z.object({ change: z.literal("remove"), userId: z.string().min(1).max(64) }),
]);

export async function changeTeamMember({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "team:write");
  const change = changeTeamMemberInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input });
  return db().$transaction(async (tx) => {
    const member = await tx.user.findFirst({ where: { id: change.userId, merchantId: actor.merchantId }, select: { id: true, email: true, role: true } });
    if (!member) throw new NotFoundError("User");
    const losesOwner = member.role === "OWNER" && (change.change === "remove" || change.role !== "OWNER");
    if (losesOwner) {
      // Lock the owners' rows so two owners demoting each other at once cannot both succeed.
      const owners = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "merchantId" = ${actor.merchantId} AND "role" = 'OWNER' FOR UPDATE`;
      if (owners.length <= 1) throw new UserFacingError("The account needs at least one owner. Make someone else an owner first.");
    }
    if (change.change === "remove") {
      await tx.user.delete({ where: { id: member.id } });
      await recordAudit(tx, { actor, action: "team.user_removed", target: member.id, details: { email: member.email, role: member.role } });
      await revokeInvitationsOf(tx, actor, member, "its sender was removed");
      return { email: member.email, removed: true as const };
    }
    await tx.user.update({ where: { id: member.id }, data: { role: change.role, sessionVersion: { increment: 1 } }, select: { id: true } });
    await recordAudit(tx, { actor, action: "team.role_changed", target: member.id, details: { email: member.email, from: member.role, to: change.role } });
    if (!roleCan(change.role, "team:write")) await revokeInvitationsOf(tx, actor, member, `its sender is now ${change.role.toLowerCase()}`);
    return { email: member.email, removed: false as const, role: change.role };
  });
}

/** The member's pending invitations end with their power to send them; one audit row each. */
async function revokeInvitationsOf(tx: Tx, actor: Actor, member: { id: string; email: string }, reason: string): Promise<void> {
  const revoked = await revokePendingInvitations(tx, { merchantId: actor.merchantId, sentBy: member.id, revokedBy: null });
  for (const invitation of revoked) {
    await recordAudit(tx, {
      actor,
      action: "team.invitation_revoked",
      target: invitation.email,
      details: { email: invitation.email, role: invitation.role ?? "VIEWER", invitedBy: member.email, reason },
    });
  }
}
