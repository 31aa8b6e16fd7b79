// Owners change a team member's role or remove them. The account always keeps at least one owner,
// so nobody can lock the merchant out of its own keys and team. The owner confirms with their own
// password (step-up), and the member's open sessions end (their session version goes up).
import { z } from "zod";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
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
      return { email: member.email, removed: true as const };
    }
    await tx.user.update({ where: { id: member.id }, data: { role: change.role, sessionVersion: { increment: 1 } }, select: { id: true } });
    await recordAudit(tx, { actor, action: "team.role_changed", target: member.id, details: { email: member.email, from: member.role, to: change.role } });
    return { email: member.email, removed: false as const, role: change.role };
  });
}
