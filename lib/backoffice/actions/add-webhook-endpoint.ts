// Settings → Notifications → Webhook endpoints: an owner or developer adds an endpoint of the mode the
// back office shows, after confirming their password (an endpoint receives customer emails, amounts
// and masked card numbers, as an address does: review 3, M3). Its secret is shown once; audited.
import { assertCan } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { db } from "../../db";
import { createWebhookEndpoint, webhookEndpointInput } from "../../notifications/webhook-endpoints";
import { recordAudit } from "../../audit/audit";
import { assertFormMode } from "../form-mode";
import type { StepUpRequest } from "./step-up-request";

export async function addWebhookEndpoint({ actor, input, ipAddress = null }: StepUpRequest<Record<string, unknown>>) {
  assertCan(actor, "settings:write");
  assertFormMode(actor, input);
  const kinds = ([] as unknown[]).concat(input.kinds ?? []).map(String).filter(Boolean);
  const fields = { mode: actor.mode, url: input.url, kinds, description: typeof input.description === "string" && input.description.trim() ? input.description : undefined };
  // Checked before the password is: a typo in the address is answered without spending an attempt.
  webhookEndpointInput.parse(fields);
  await confirmIdentity({ userId: actor.userId, input, ipAddress });
  return db().$transaction(async (tx) => {
    const created = await createWebhookEndpoint({ merchantId: actor.merchantId, input: fields, tx });
    await recordAudit(tx, {
      actor,
      action: "webhook_endpoint.created",
      target: created.endpoint.id,
      details: { url: created.endpoint.url, mode: created.endpoint.mode, kinds: created.endpoint.kinds },
    });
    return created;
  });
}
