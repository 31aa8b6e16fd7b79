// Settings → Team: an owner withdraws a pending invitation (security review 4, M2), e.g. one sent to a
// wrong address. Taking a way in away asks for no password (as revoking an API key does); it is
// audited, and the link is refused from then on.
import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { revokePendingInvitations } from "../../users/revoke-invitations";
import { UserFacingError } from "../action-result";
import { recordAudit } from "../../audit/audit";

export const revokeInvitationInput = z.object({ invitationId: z.string().min(1).max(64) });

export async function revokeInvitation({ actor, input }: { actor: Actor; input: unknown }): Promise<{ email: string }> {
  assertCan(actor, "team:write");
  const { invitationId } = revokeInvitationInput.parse(input);
  return db().$transaction(async (tx) => {
    const [revoked] = await revokePendingInvitations(tx, { merchantId: actor.merchantId, invitationId, revokedBy: actor.userId });
    if (!revoked) throw new UserFacingError("This invitation is no longer pending: it was used, revoked or has expired.");
    await recordAudit(tx, {
      actor,
      action: "team.invitation_revoked",
      target: revoked.email,
      details: { email: revoked.email, role: revoked.role ?? "VIEWER", reason: "revoked by an owner" },
    });
    return { email: revoked.email };
  });
}
