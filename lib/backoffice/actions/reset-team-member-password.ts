// An owner gives a team member who forgot their password a new, random one, shown once to hand over
// (the member then changes it on their account page). Owners only, confirmed with the owner's own
// password and code (step-up), never for the owner themself (that is "change password", which asks
// for the current one). The member's open sessions end.
import { z } from "zod";
import { assertCan, NotFoundError } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { resetUserPassword } from "../../users/reset-user-password";
import { UserFacingError } from "../action-result";
import { recordAudit } from "../../audit/audit";
import type { StepUpRequest } from "./step-up-request";

export const resetTeamMemberPasswordInput = z.object({ userId: z.string().min(1).max(64) });

export async function resetTeamMemberPassword({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "team:write");
  const { userId } = resetTeamMemberPasswordInput.parse(input);
  if (userId === actor.userId) throw new UserFacingError("Change your own password on your account page.");
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const member = await tx.user.findFirst({ where: { id: userId, merchantId: actor.merchantId }, select: { id: true, email: true, role: true, totpEnabledAt: true } });
    if (!member) throw new NotFoundError("User");
    // An owner resetting another owner could sign in as them: only when that owner's second factor
    // still guards their account (a reset leaves it on); otherwise the operator CLI resets it (review 3, M8).
    if (member.role === "OWNER" && !member.totpEnabledAt) {
      throw new UserFacingError("An owner without two-factor authentication can only be reset by the operator (npm run cli -- user reset-password).");
    }
    const { temporaryPassword } = await resetUserPassword({ tx, userId: member.id });
    await recordAudit(tx, { actor, action: "team.password_reset", target: member.id, details: { email: member.email } });
    return { email: member.email, temporaryPassword };
  });
}
