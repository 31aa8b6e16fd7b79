// Settings → Team, "Who may act in live mode": an owner limits live-mode actions (capture, refund,
// void, resend, live keys and addresses, and settings both modes share) to owners, or lets
// developers act there as in test mode. Roles apply to both modes; this only narrows live mode.
// Step-up and audited: it decides who can move live money.
import { z } from "zod";
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { recordAudit } from "../../audit/audit";
import type { StepUpRequest } from "./step-up-request";

export const setLiveModeRoleInput = z.object({
  liveModeMinRole: z.enum(["OWNER", "DEVELOPER"], { error: "Choose owners only, or owners and developers" }),
});

export async function setLiveModeRole({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "team:write");
  const { liveModeMinRole } = setLiveModeRoleInput.parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const before = await tx.merchant.findUniqueOrThrow({ where: { id: actor.merchantId }, select: { liveModeMinRole: true } });
    await tx.merchant.update({ where: { id: actor.merchantId }, data: { liveModeMinRole }, select: { id: true } });
    await recordAudit(tx, {
      actor,
      action: "settings.live_mode_role.updated",
      target: actor.merchantId,
      details: { before: before.liveModeMinRole, after: liveModeMinRole },
    });
    return { liveModeMinRole };
  });
}
