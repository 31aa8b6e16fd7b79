// `webhooks ...`: the operator's commands for merchants' webhook endpoints
// (docs/decisions/0111-webhook-endpoints-copies-each-with-its-own-secret.md). A new or rolled secret
// is printed once, as `merchant create` prints the merchant's own; every change is audited.
import { z } from "zod";
import { db } from "../db";
import { recordAuditEntry } from "../audit/audit";
import {
  SUBSCRIBABLE_KINDS,
  createWebhookEndpoint,
  disableWebhookEndpoint,
  listWebhookEndpoints,
  rollWebhookEndpointSecret,
  type WebhookEndpointView,
} from "../notifications/webhook-endpoints";
import type { CliCommand, CliOption, Options } from "./cli-command";
import { kindHeaderValue } from "../notifications/notification-kind-header";

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  throw new z.ZodError([{ code: "custom", path: [name], message: `--${name} is required`, input: undefined }]);
}

async function merchantMustExist(merchantId: string): Promise<void> {
  if (!(await db().merchant.findUnique({ where: { id: merchantId }, select: { id: true } }))) throw new Error(`no merchant with id ${merchantId}`);
}

function describe(endpoint: WebhookEndpointView): string {
  const kinds = endpoint.kinds.length > 0 ? endpoint.kinds.map(kindHeaderValue).join(", ") : "every kind";
  return `${endpoint.id}  ${endpoint.mode}  ${endpoint.enabled ? "enabled" : "disabled"}  ${endpoint.url}  (${kinds})${endpoint.description ? `  “${endpoint.description}”` : ""}`;
}

const data = (endpoint: WebhookEndpointView) => ({ ...endpoint, kinds: endpoint.kinds.map(kindHeaderValue), createdAt: endpoint.createdAt.toISOString() });

const MERCHANT: CliOption = { type: "string", value: "<merchantid>", required: true };
const ENDPOINT: CliOption = { type: "string", value: "<endpointid>", required: true };

export const WEBHOOK_COMMANDS: CliCommand[] = [
  {
    words: "webhooks list",
    options: { merchant: MERCHANT },
    description: `a merchant's webhook endpoints (never their secrets)`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const endpoints = await db().$transaction((tx) => listWebhookEndpoints({ merchantId, tx }));
    return { text: endpoints.map(describe).join("\n") || "no webhook endpoints", data: endpoints.map(data) };
  },
  },
  {
    words: "webhooks add",
    options: { merchant: MERCHANT, mode: { type: "string", value: "test|live", required: true }, url: { type: "string", value: "<https://...>", required: true }, kinds: { type: "string", value: "<kind,kind,...>" }, description: { type: "string", value: "<text>" } },
    description: `an endpoint that gets a copy of every notification of those kinds (all kinds when --kinds is left out),
signed with its own secret, printed once. Kinds: ${SUBSCRIBABLE_KINDS.map(kindHeaderValue).join(", ")}`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    await merchantMustExist(merchantId);
    const kinds = typeof options.kinds === "string" ? options.kinds.split(",").map((kind) => kind.trim()).filter(Boolean) : [];
    const input = { mode: required(options, "mode"), url: required(options, "url"), kinds, description: options.description };
    const { endpoint, secret } = await db().$transaction(async (tx) => {
      const created = await createWebhookEndpoint({ merchantId, input, tx });
      await recordAuditEntry(tx, {
        merchantId,
        userId: null,
        action: "webhook_endpoint.created",
        target: created.endpoint.id,
        details: { by: "operator (CLI)", url: created.endpoint.url, mode: created.endpoint.mode, kinds: created.endpoint.kinds },
      });
      return created;
    });
    return {
      text: `Webhook endpoint added:\n${describe(endpoint)}\n  Signing secret  ${secret}   (shown once: verify this endpoint's notifications with it)`,
      data: { ...data(endpoint), signingsecret: secret },
    };
  },
  },
  {
    words: "webhooks disable",
    options: { merchant: MERCHANT, endpoint: ENDPOINT },
    description: `the endpoint gets no new copies (its sent ones stay in the notification log)`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    const endpointId = required(options, "endpoint");
    const endpoint = await db().$transaction(async (tx) => {
      const disabled = await disableWebhookEndpoint({ merchantId, endpointId, tx });
      await recordAuditEntry(tx, { merchantId, userId: null, action: "webhook_endpoint.disabled", target: endpointId, details: { by: "operator (CLI)" } });
      return disabled;
    });
    return { text: `Webhook endpoint disabled:\n${describe(endpoint)}`, data: data(endpoint) };
  },
  },
  {
    words: "webhooks roll-secret",
    options: { merchant: MERCHANT, endpoint: ENDPOINT, "overlap-seconds": { type: "string", value: "<0..86400>" } },
    description: `a new secret, printed once; the old one signs too until the overlap ends (default 86400 seconds)`,
    run: async (options) => {
    const merchantId = required(options, "merchant");
    const endpointId = required(options, "endpoint");
    const overlapSeconds = typeof options["overlap-seconds"] === "string" ? z.coerce.number({ error: "--overlap-seconds must be a number of seconds" }).int().min(0).max(86_400).parse(options["overlap-seconds"]) : 24 * 60 * 60;
    const rolled = await db().$transaction(async (tx) => {
      const result = await rollWebhookEndpointSecret({ merchantId, endpointId, overlapSeconds, tx });
      await recordAuditEntry(tx, {
        merchantId,
        userId: null,
        action: "webhook_endpoint.secret_rolled",
        target: endpointId,
        details: { by: "operator (CLI)", previousValidUntil: result.previousValidUntil.toISOString() },
      });
      return result;
    });
    return {
      text: `New signing secret for ${endpointId}: ${rolled.secret}   (shown once; the previous one also signs until ${rolled.previousValidUntil.toISOString()})`,
      data: { endpointid: endpointId, signingsecret: rolled.secret, previousvaliduntil: rolled.previousValidUntil.toISOString() },
    };
  },
  },
];
