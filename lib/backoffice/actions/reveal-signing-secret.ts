// The notification signing secret is sent to the browser only when an owner asks to see or copy it,
// after confirming their password (and code): its holder can forge notifications to the merchant
// (an "approved" completion ships goods), so a session cookie alone must not yield it (review 3, M3).
// Each reveal goes into the audit log. It is the secret of the mode the back office shows: test and
// live notifications are signed with secrets of their own (security review 4, M1).
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { ensureSigningSecret } from "../../notifications/signing-secrets";
import { recordAudit } from "../../audit/audit";
import type { StepUpRequest } from "./step-up-request";

export async function revealSigningSecret({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "secrets:manage");
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  const [current, ...previous] = await ensureSigningSecret({ merchantId: actor.merchantId, mode: actor.mode });
  return db().$transaction(async (tx) => {
    await recordAudit(tx, {
      actor,
      action: "secret.revealed",
      target: actor.merchantId,
      details: { secret: `notification signing secret (${actor.mode} mode)`, mode: actor.mode, ip: ipAddress ?? "unknown" },
    });
    // An older secret still in its overlap is named by its end only: it is on its way out.
    return { secret: current!.secret, mode: actor.mode, previousValidUntil: previous[0]?.expiresAt ?? null };
  });
}
