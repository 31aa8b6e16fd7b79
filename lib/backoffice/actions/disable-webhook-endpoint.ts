// Settings → Notifications → Webhook endpoints: stops the copies to an endpoint (those already made
// finish their schedule). Of the actor's merchant and mode only; audited.
import { z } from "zod";
import { assertCan, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { disableWebhookEndpoint as disableEndpoint } from "../../notifications/webhook-endpoints";
import { recordAudit } from "../../audit/audit";

export async function disableWebhookEndpoint({ actor, input }: { actor: Actor; input: unknown }) {
  assertCan(actor, "settings:write");
  const { endpointId } = z.object({ endpointId: z.string().min(1).max(32) }).parse(input);
  return db().$transaction(async (tx) => {
    const mine = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, merchantId: actor.merchantId, mode: actor.mode }, select: { id: true } });
    if (!mine) throw new z.ZodError([{ code: "custom", path: ["endpointId"], message: "No such endpoint in this mode", input: endpointId }]);
    const endpoint = await disableEndpoint({ merchantId: actor.merchantId, endpointId, tx });
    await recordAudit(tx, { actor, action: "webhook_endpoint.disabled", target: endpointId, details: { url: endpoint.url } });
    return endpoint;
  });
}
