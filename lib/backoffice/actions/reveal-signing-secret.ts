// The notification signing secret is sent to the browser only when an owner asks to see or copy it,
// after confirming their password (and code): its holder can forge notifications to the merchant
// (an "approved" completion ships goods), so a session cookie alone must not yield it (review 3, M3).
// Each reveal goes into the audit log.
import { assertCan, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { activeSigningSecrets } from "../../notifications/signing-secrets";
import { recordAudit } from "../../audit/audit";

export async function revealSigningSecret({ actor, input, ipAddress = null }: { actor: Actor; input: unknown; ipAddress?: string | null }) {
  assertCan(actor, "secrets:manage");
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const [current, ...previous] = await activeSigningSecrets({ merchantId: actor.merchantId, client: tx });
    if (!current) throw new Error(`merchant ${actor.merchantId} has no signing secret`);
    await recordAudit(tx, {
      actor,
      action: "secret.revealed",
      target: actor.merchantId,
      details: { secret: "notification signing secret", ip: ipAddress ?? "unknown" },
    });
    // An older secret still in its overlap is named by its end only: it is on its way out.
    return { secret: current.secret, previousValidUntil: previous[0]?.expiresAt ?? null };
  });
}
