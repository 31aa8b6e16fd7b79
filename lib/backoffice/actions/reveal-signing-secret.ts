// The notification signing secret is sent to the browser only when someone asks to see or copy it,
// and each time goes into the audit log: its holder can forge notifications to the merchant, so who
// looked at it, and when, is worth knowing. Only roles that change settings may (as before).
import { assertCan, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { recordAudit } from "../audit";

export async function revealSigningSecret({ actor, ipAddress = null }: { actor: Actor; ipAddress?: string | null }): Promise<string> {
  assertCan(actor, "settings:write");
  return db().$transaction(async (tx) => {
    const { notificationSecret } = await tx.merchant.findUniqueOrThrow({ where: { id: actor.merchantId }, select: { notificationSecret: true } });
    await recordAudit(tx, { actor, action: "secret.revealed", target: actor.merchantId, details: { secret: "notification signing secret", ip: ipAddress ?? "unknown" } });
    return notificationSecret;
  });
}
