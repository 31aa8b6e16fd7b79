// Settings → Notifications → Webhook endpoints: an owner rolls one endpoint's secret after confirming
// their password; the old one keeps signing for the chosen overlap (as the merchant's own secret:
// roll-signing-secret.ts). The new secret is shown once; audited.
import { z } from "zod";
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { rollWebhookEndpointSecret as rollEndpointSecret } from "../../notifications/webhook-endpoints";
import { recordAudit } from "../../audit/audit";
import { rollSigningSecretInput } from "./roll-signing-secret";
import type { StepUpRequest } from "./step-up-request";

export async function rollWebhookEndpointSecret({ actor, input, ipAddress = null }: StepUpRequest) {
  assertCan(actor, "secrets:manage");
  const { endpointId, overlapSeconds } = rollSigningSecretInput.extend({ endpointId: z.string().min(1).max(32) }).parse(input);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const mine = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, merchantId: actor.merchantId, mode: actor.mode }, select: { id: true } });
    if (!mine) throw new z.ZodError([{ code: "custom", path: ["endpointId"], message: "No such endpoint in this mode", input: endpointId }]);
    const rolled = await rollEndpointSecret({ merchantId: actor.merchantId, endpointId, overlapSeconds, tx });
    await recordAudit(tx, {
      actor,
      action: "webhook_endpoint.secret_rolled",
      target: endpointId,
      details: { overlapSeconds, previousValidUntil: rolled.previousValidUntil.toISOString(), ip: ipAddress ?? "unknown" },
    });
    return rolled;
  });
}
