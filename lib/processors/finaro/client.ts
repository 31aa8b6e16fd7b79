// Finaro connector: plumbing around the pure transformers. One endpoint, form-urlencoded key=value
// requests signed with `K`, url-encoded key=value answers. The account's MID (`M`) and signature key
// come with each call (lib/processors/credentials.ts): one connector serves every merchant's MID.
import { z } from "zod";
import { CardDetails } from "../../cards/card-details";
import { parseAcquirerJson } from "../parse-acquirer-json";
import { basicAuth, failureFromOutcome, send, unreadableAnswer } from "../http";
import type { FinaroCredentials } from "../credentials";
import { everyLookupKind, type AcquirerConnector, type CardUpdate, type ConnectorCall, type ProcessorResult } from "../types";
import { randomUUID } from "node:crypto";
import { finaroSignature } from "./signature";
import {
  FINARO_SANDBOX_NOT_FOUND,
  toFinaroRetrieve,
  fromFinaroResponse,
  parseFinaroBody,
  toFinaroAuthorize,
  toFinaroCapture,
  toFinaroPayout,
  toFinaroRefund,
  toFinaroVoid,
} from "./transformers";

export const finaroSettings = z.object({
  /** The gateway endpoint, e.g. https://intconsole.credorax.com/intenv/service/gateway */
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /** The base URL is our sandbox (registered by the launcher): its look-up conventions may be relied on. */
  sandboxExtensions: z.boolean().optional(),
});
export type FinaroSettings = z.infer<typeof finaroSettings>;

const cardUpdateFeed = z.object({
  updates: z.array(
    z.object({
      id: z.string(),
      par: z.string(),
      kind: z.enum(["expiry", "pan", "closed"]),
      b3: z.string().optional(),
      b4: z.string().optional(),
      b1: z.string().optional(),
      updated_at: z.string(),
    }),
  ),
});

/**
 * Z2 codes of a refused merchant: -1 to -3 account errors and -8 a bad signature (the Z2 list of the
 * ePower implementation guide, as metaps-koike/active_merchant's credorax.rb carries it).
 */
const CREDENTIALS_REFUSED = new Set(["-1", "-2", "-3", "-8"]);

export function createFinaroConnector(input: FinaroSettings): AcquirerConnector<FinaroCredentials> {
  const settings = finaroSettings.parse(input);

  /** One signed form POST to the gateway (every Finaro call is one). */
  function sendSigned(fields: Record<string, string>, call: ConnectorCall<FinaroCredentials>) {
    const signed = { ...fields, K: finaroSignature(fields, call.credentials.signatureKey) };
    return send({
      url: settings.baseUrl,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(signed).toString(),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
  }

  async function post(fields: Record<string, string>, call: ConnectorCall<FinaroCredentials>, eci?: string): Promise<ProcessorResult> {
    const outcome = await sendSigned(fields, call);
    if (outcome.kind !== "response") return failureFromOutcome(outcome, "finaro", settings.timeoutMs);
    const parsed = outcome.status === 200 ? parseFinaroBody(outcome.text) : undefined;
    if (!parsed) return unreadableAnswer("finaro", outcome.status);
    return fromFinaroResponse(parsed, eci);
  }

  /** O=101 past-transaction retrieval by the `a1` of the original request. */
  async function retrieve(operationId: string, call: ConnectorCall<FinaroCredentials>): Promise<ProcessorResult | undefined> {
    const fields = toFinaroRetrieve(operationId, call.credentials.merchantId, randomUUID().replace(/-/g, ""));
    const outcome = await sendSigned(fields, call);
    if (outcome.kind !== "response") throw new Error(`finaro retrieval failed: ${outcome.kind}`);
    const parsed = outcome.status === 200 ? parseFinaroBody(outcome.text) : undefined;
    if (!parsed) throw new Error(`finaro retrieval answered HTTP ${outcome.status} with a body we could not read`);
    if (Number(parsed.Z2) < 0) {
      if (settings.sandboxExtensions && parsed.Z2 === FINARO_SANDBOX_NOT_FOUND) return undefined;
      // The retrieval itself was refused (-9 malformed, -8 signature, -7 no response from gateway, ...):
      // that says nothing about the original request, whose outcome stays unknown.
      throw new Error(`finaro retrieval refused (Z2=${parsed.Z2})`);
    }
    return fromFinaroResponse(parsed);
  }

  return {
    name: "finaro",
    authorize: (request, call) => post(toFinaroAuthorize(request, call.credentials.merchantId), call, request.threeDs?.eci),
    capture: (request, call) => post(toFinaroCapture(request, call.credentials.merchantId), call),
    refund: (request, call) => post(toFinaroRefund(request, call.credentials.merchantId), call),
    void: (request, call) => post(toFinaroVoid(request, call.credentials.merchantId), call),
    payout: (request, call) => post(toFinaroPayout(request, call.credentials.merchantId), call),
    // O=101 is known by name only [MK-CR]; Finaro publishes no "not found" answer to it, so only
    // our sandbox's (docs/acquirers.md) proves that a request never arrived.
    lookups: everyLookupKind(
      settings.sandboxExtensions
        ? { lookup: true, notFoundIsProof: true, source: "finaro sandbox: O=101 answers Z2=-100 for an a1 it never received" }
        : {
            lookup: true,
            notFoundIsProof: false,
            source: "Finaro O=101 retrieval by the original a1 [MK-CR]; no published not-found code",
          },
    ),
    lookupOperation: ({ operationId }, call) => retrieve(operationId, call),
    /**
     * Finaro publishes no account endpoint: every call is an operation. The harmless one is a
     * past-transaction retrieval (O=101) of a reference that was never used: signed like any request,
     * it moves nothing. A merchant or signature refusal (Z2 -1..-3, -8) means the credentials are
     * wrong; any other answer, "not found" included, means the gateway accepted them.
     */
    async checkConnection(call) {
      const fields = toFinaroRetrieve(randomUUID().replace(/-/g, ""), call.credentials.merchantId, randomUUID().replace(/-/g, ""));
      const outcome = await sendSigned(fields, call);
      if (outcome.kind !== "response") return { ok: false, message: `retrieval (O=101): no answer (${outcome.kind})` };
      const parsed = outcome.status === 200 ? parseFinaroBody(outcome.text) : undefined;
      if (!parsed) return { ok: false, message: `retrieval (O=101): HTTP ${outcome.status} with a body we could not read` };
      const text = parsed.Z3 ? ` (${parsed.Z3})` : "";
      if (CREDENTIALS_REFUSED.has(parsed.Z2 ?? ""))
        return { ok: false, message: `retrieval (O=101): Z2=${parsed.Z2}${text}: Finaro refused the merchant id or signature` };
      return {
        ok: true,
        message: `retrieval (O=101) of an unused reference: Z2=${parsed.Z2 ?? ""}${text}; the merchant id and signature are accepted`,
      };
    },
    async cardUpdates({ since }, call): Promise<CardUpdate[]> {
      const fields = { M: call.credentials.merchantId, since: since.toISOString() };
      const query = new URLSearchParams({ ...fields, K: finaroSignature(fields, call.credentials.signatureKey) });
      const outcome = await send({
        url: `${settings.baseUrl.replace(/\/+$/, "")}/account-updater?${query}`,
        method: "GET",
        headers: { accept: "application/json", authorization: basicAuth(call.credentials.merchantId, "") },
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (outcome.kind !== "response" || outcome.status !== 200) throw new Error("finaro card-update feed unavailable");
      const feed = parseAcquirerJson(outcome.text, cardUpdateFeed, "finaro card-update feed");
      return feed.updates.map((update) => {
        const newExpMonth = update.b3 ? Number(update.b3) : undefined;
        const newExpYear = update.b4 ? 2000 + Number(update.b4) : undefined;
        return {
          updateId: update.id,
          par: update.par,
          kind: update.kind,
          newExpMonth,
          newExpYear,
          newCard:
            update.b1 && newExpMonth && newExpYear
              ? new CardDetails({ pan: update.b1, expMonth: newExpMonth, expYear: newExpYear })
              : undefined,
          updatedAt: new Date(update.updated_at),
        };
      });
    },
  };
}
