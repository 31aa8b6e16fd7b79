// Webhook endpoints (issue 28; docs/decisions/0111-webhook-endpoints-copies-each-with-its-own-secret.md): more addresses of a merchant,
// each of one mode, subscribed to chosen notification kinds, each with signing secrets of its own
// (shown once when made or rolled; rolled with an overlap as the merchant's own secret is). The
// spec's configured addresses stay where the notifications themselves go; endpoints get copies
// (lib/notifications/enqueue-notification.ts). Endpoints are disabled, never deleted: the copies
// already sent keep their endpoint in the notification log.
import { z } from "zod";
import { db, type Tx } from "../db";
import { checkParsedMerchantUrl } from "../egress/check-merchant-url";
import { config } from "../env";
import { NotificationKind } from "../generated/prisma/enums";
import { newId } from "../ids";
import { modeSchema, type Mode } from "../mode";
import { kindHeaderValue } from "./notification-kind-header";
import { MAX_SIGNING_SECRET_OVERLAP_SECONDS, createSigningSecret, rollSigningSecretRows } from "./signing-secrets";

/** The kinds an endpoint may subscribe to (a test notification goes to the configured address only). */
export const SUBSCRIBABLE_KINDS = Object.values(NotificationKind).filter((kind) => kind !== "test" && kind !== "operation");

/** At most this many enabled endpoints per merchant and mode (Stripe allows 16). */
export const MAX_ENDPOINTS_PER_MODE = 16;

const endpointUrl = z
  .string()
  .trim()
  .max(2000, "use at most 2000 characters")
  .pipe(z.url({ error: "enter a full address such as https://shop.example/webhooks" }))
  .superRefine((value, context) => {
    const url = URL.parse(value);
    if (!url) return;
    if (url.username || url.password) context.addIssue({ code: "custom", message: "leave user name and password out: copies are signed" });
    if (config().isProduction && url.protocol !== "https:") context.addIssue({ code: "custom", message: "must be an https URL" });
    // The egress rules of every merchant address: checked again before each connection.
    const refused = checkParsedMerchantUrl(url);
    if (refused) context.addIssue({ code: "custom", message: refused });
  });

export const webhookEndpointInput = z.object({
  mode: modeSchema,
  url: endpointUrl,
  /** Empty or absent: every kind. */
  // The header's spelling (`payment-details`, what receivers and the docs see) and the stored one
  // (`payment_details`) are both taken.
  kinds: z
    .array(
      z.preprocess(
        (kind) => (typeof kind === "string" ? kind.trim().replaceAll("-", "_") : kind),
        z.enum(SUBSCRIBABLE_KINDS as [string, ...string[]], { error: `must be among ${SUBSCRIBABLE_KINDS.map(kindHeaderValue).join(", ")}` }),
      ),
    )
    .default([]),
  description: z.string().trim().max(200).optional(),
});

export interface WebhookEndpointView {
  id: string;
  mode: Mode;
  url: string;
  kinds: string[];
  description: string | null;
  enabled: boolean;
  createdAt: Date;
}

const VIEW = { id: true, mode: true, url: true, kinds: true, description: true, enabled: true, createdAt: true } as const;

/** Makes an endpoint and its first secret; the secret is returned in clear, to be shown once. */
export async function createWebhookEndpoint({ merchantId, input, tx }: { merchantId: string; input: unknown; tx: Tx }) {
  const parsed = webhookEndpointInput.parse(input);
  const enabled = await tx.webhookEndpoint.count({ where: { merchantId, mode: parsed.mode, enabled: true } });
  if (enabled >= MAX_ENDPOINTS_PER_MODE) {
    throw new z.ZodError([{ code: "custom", path: ["url"], message: `at most ${MAX_ENDPOINTS_PER_MODE} enabled endpoints per mode`, input: parsed.url }]);
  }
  const endpoint = await tx.webhookEndpoint.create({
    data: {
      id: newId(),
      merchantId,
      mode: parsed.mode,
      url: parsed.url,
      kinds: parsed.kinds as NotificationKind[],
      description: parsed.description ?? null,
    },
    select: VIEW,
  });
  const secret = await createSigningSecret({ merchantId, mode: parsed.mode, endpointId: endpoint.id, tx });
  return { endpoint: endpoint as WebhookEndpointView, secret };
}

export async function listWebhookEndpoints({ merchantId, mode, tx }: { merchantId: string; mode?: Mode; tx?: Tx }): Promise<WebhookEndpointView[]> {
  return (await (tx ?? db()).webhookEndpoint.findMany({ where: { merchantId, mode }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: VIEW })) as WebhookEndpointView[];
}

async function endpointOf(tx: Tx, merchantId: string, endpointId: string) {
  const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, merchantId }, select: VIEW });
  if (!endpoint) throw new z.ZodError([{ code: "custom", path: ["endpoint"], message: "no such endpoint of this merchant", input: endpointId }]);
  return endpoint as WebhookEndpointView;
}

/** No new copies go to it; those already made finish their schedule. */
export async function disableWebhookEndpoint({ merchantId, endpointId, tx }: { merchantId: string; endpointId: string; tx: Tx }) {
  await endpointOf(tx, merchantId, endpointId);
  await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { enabled: false } });
  return endpointOf(tx, merchantId, endpointId);
}

/** A new secret signs from now on; the old ones go on signing for `overlapSeconds` (both signatures are sent meanwhile). */
export async function rollWebhookEndpointSecret({
  merchantId,
  endpointId,
  overlapSeconds,
  tx,
}: {
  merchantId: string;
  endpointId: string;
  overlapSeconds: number;
  tx: Tx;
}) {
  const overlap = z.number().int().min(0).max(MAX_SIGNING_SECRET_OVERLAP_SECONDS).parse(overlapSeconds);
  const endpoint = await endpointOf(tx, merchantId, endpointId);
  const { secret, previousValidUntil } = await rollSigningSecretRows({ merchantId, mode: endpoint.mode, endpointId, overlapSeconds: overlap, tx });
  return { endpoint, secret, previousValidUntil };
}
