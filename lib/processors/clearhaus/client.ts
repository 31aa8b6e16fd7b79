// Clearhaus connector: Basic auth with the account's API key as user name and an empty password, form
// bodies with bracketed keys, HAL JSON answers. A decline is HTTP 2xx with a status code other than
// 20000. The credentials come with each call (lib/processors/credentials.ts): one connector serves
// every merchant account; signing partners also sign each POST body (RS256-hex, getting_started/rsa_signature).
import { createPrivateKey, sign } from "node:crypto";
import { z } from "zod";
import { CardDetails } from "../../cards/card-details";
import { parseAcquirerJson } from "../parse-acquirer-json";
import { basicAuth, failureFromOutcome, send, unreadableAnswer } from "../http";
import type { ClearhausCredentials } from "../credentials";
import {
  RESPONSE_CODES,
  LookupNotOfferedError,
  everyLookupKind,
  type AcquirerConnector,
  type CardUpdate,
  type ConnectorCall,
  type ProcessorResult,
} from "../types";
import {
  clearhausReference,
  clearhausTransaction,
  fromClearhausTransaction,
  toClearhausAmount,
  toClearhausAuthorize,
  toClearhausCredit,
} from "./transformers";

export const clearhausSettings = z.object({
  /** https://gateway.clearhaus.com, or https://gateway.test.clearhaus.com */
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /** The base URL is our sandbox (registered by the launcher): its look-up extension may be used. */
  sandboxExtensions: z.boolean().optional(),
});
export type ClearhausSettings = z.infer<typeof clearhausSettings>;

/** The body of a refused request: a status without a transaction. */
const clearhausRefusal = z.object({ status: z.object({ code: z.number().int().min(40000).max(49999), message: z.string().optional() }) });

export const CLEARHAUS_MEDIA_TYPE = "application/vnd.clearhaus-gateway.hal+json; version=0.10.0";

const cardUpdateFeed = z.object({
  _embedded: z.object({
    card_updates: z.array(
      z.object({
        id: z.string(),
        payment_account_reference: z.string(),
        kind: z.enum(["expiry", "pan", "closed"]),
        expire_month: z.string().optional(),
        expire_year: z.string().optional(),
        pan: z.string().optional(),
        updated_at: z.string(),
      }),
    ),
  }),
});

const accountBody = z.object({
  merchant_id: z.string().optional(),
  descriptor: z.string().optional(),
  name: z.string().optional(),
  country: z.string().optional(),
  currency: z.string().optional(),
  mcc: z.string().optional(),
});

function headersFor(credentials: ClearhausCredentials) {
  return { authorization: basicAuth(credentials.apiKey, ""), accept: CLEARHAUS_MEDIA_TYPE };
}

/** "Signature: <signing-api-key> RS256-hex <hex>" over the body, for signing partners (absent otherwise). */
function signatureHeader(credentials: ClearhausCredentials, body: string): Record<string, string> {
  if (!credentials.signingApiKey || !credentials.signingPrivateKey) return {};
  const signature = sign("sha256", Buffer.from(body), createPrivateKey(credentials.signingPrivateKey)).toString("hex");
  return { signature: `${credentials.signingApiKey} RS256-hex ${signature}` };
}

export function createClearhausConnector(input: ClearhausSettings): AcquirerConnector<ClearhausCredentials> {
  const settings = clearhausSettings.parse(input);
  const base = settings.baseUrl.replace(/\/+$/, "");

  /** `operationId` goes out as Idempotency-Key: a retried call after a lost answer must not act twice. */
  async function post(
    path: string,
    fields: Record<string, string>,
    operationId: string,
    call: ConnectorCall<ClearhausCredentials>,
    eci?: string,
  ): Promise<ProcessorResult> {
    const body = new URLSearchParams(fields).toString();
    const outcome = await send({
      url: `${base}${path}`,
      method: "POST",
      headers: {
        ...headersFor(call.credentials),
        ...signatureHeader(call.credentials, body),
        "content-type": "application/x-www-form-urlencoded",
        "idempotency-key": operationId,
      },
      body,
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") return failureFromOutcome(outcome, "clearhaus", settings.timeoutMs);
    // Whatever a 5xx body says, the acquirer may have acted: indeterminate.
    if (outcome.status >= 500) return unreadableAnswer("clearhaus", outcome.status);
    if (outcome.status === 401)
      return { status: "failed", failure: "declined", responsecode: "03", message: "clearhaus refused the API key" };
    if (outcome.status === 404)
      return {
        status: "failed",
        failure: "declined",
        responsecode: RESPONSE_CODES.invalidTransaction,
        message: "clearhaus: transaction not found",
      };
    let json: unknown;
    try {
      json = JSON.parse(outcome.text);
    } catch {
      return unreadableAnswer("clearhaus", outcome.status);
    }
    const parsed = clearhausTransaction.safeParse(json);
    if (!parsed.success) {
      // A 400 carries only a status, e.g. {"status":{"code":40000,"message":"parameter 'amount' is required"}}
      // [CH-status]: the request was refused, nothing was done (a 4xx is never indeterminate).
      const refusal = outcome.status >= 400 && outcome.status < 500 ? clearhausRefusal.safeParse(json) : undefined;
      if (refusal?.success) return fromClearhausTransaction({ id: "", ...refusal.data }, eci);
      return unreadableAnswer("clearhaus", outcome.status);
    }
    return fromClearhausTransaction(parsed.data, eci);
  }

  const ref = (id: string) => encodeURIComponent(id);

  return {
    name: "clearhaus",
    authorize: (request, call) => post("/authorizations", toClearhausAuthorize(request), request.operationId, call, request.threeDs?.eci),
    capture: (request, call) =>
      post(
        `/authorizations/${ref(request.authorizationReference)}/captures`,
        toClearhausAmount(request.amount, request.textOnStatement),
        request.operationId,
        call,
      ),
    refund: (request, call) =>
      post(
        `/authorizations/${ref(request.authorizationReference)}/refunds`,
        toClearhausAmount(request.amount, request.textOnStatement),
        request.operationId,
        call,
      ),
    void: (request, call) => post(`/authorizations/${ref(request.authorizationReference)}/voids`, {}, request.operationId, call),
    payout: (request, call) => post("/credits", toClearhausCredit(request), request.operationId, call),
    /** GET /account: the one read-only resource of the Gateway API (api_resources/account). */
    async checkConnection(call) {
      const outcome = await send({
        url: `${base}/account`,
        method: "GET",
        headers: headersFor(call.credentials),
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (outcome.kind !== "response") return { ok: false, message: `GET /account: no answer (${outcome.kind})` };
      if (outcome.status === 401) return { ok: false, message: "GET /account: HTTP 401, Clearhaus refused the API key" };
      if (outcome.status !== 200) return { ok: false, message: `GET /account: HTTP ${outcome.status}` };
      let account: z.infer<typeof accountBody>;
      try {
        account = accountBody.parse(JSON.parse(outcome.text));
      } catch {
        return { ok: false, message: "GET /account: HTTP 200 with a body we could not read" };
      }
      const details = Object.fromEntries(
        Object.entries(account).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      );
      return { ok: true, message: "GET /account: HTTP 200, the API key is accepted", details };
    },
    // Clearhaus documents no search by our reference: its only GET endpoints are /account and the
    // root [CH-endpoints]. Our sandbox serves GET /transactions?reference= (a sandbox-only
    // extension, docs/acquirers.md); against the real gateway an unknown outcome waits for an
    // operator, who checks Clearhaus' own reports.
    lookups: everyLookupKind(
      settings.sandboxExtensions
        ? { lookup: true, notFoundIsProof: true, source: "clearhaus sandbox extension GET /transactions?reference=" }
        : { lookup: false, notFoundIsProof: false, source: "Clearhaus documents no look-up by reference [CH-endpoints]" },
    ),
    async lookupOperation({ kind, operationId }, call) {
      if (!settings.sandboxExtensions) throw new LookupNotOfferedError("clearhaus", kind);
      const outcome = await send({
        url: `${base}/transactions?reference=${encodeURIComponent(clearhausReference(operationId))}`,
        method: "GET",
        headers: headersFor(call.credentials),
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (outcome.kind !== "response") throw new Error(`clearhaus look-up failed: ${outcome.kind}`);
      if (outcome.status === 404) return undefined;
      if (outcome.status !== 200) throw new Error(`clearhaus look-up answered HTTP ${outcome.status}`);
      // Fixed texts only: JSON.parse's own message would quote the body (lib/processors/parse-acquirer-json.ts).
      return fromClearhausTransaction(parseAcquirerJson(outcome.text, clearhausTransaction, "clearhaus look-up"));
    },
    async cardUpdates({ since }, call): Promise<CardUpdate[]> {
      const outcome = await send({
        url: `${base}/card_updates?since=${encodeURIComponent(since.toISOString())}`,
        method: "GET",
        headers: headersFor(call.credentials),
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (outcome.kind !== "response" || outcome.status !== 200) throw new Error("clearhaus card-update feed unavailable");
      return parseAcquirerJson(outcome.text, cardUpdateFeed, "clearhaus card-update feed")._embedded.card_updates.map((update) => {
        const newExpMonth = update.expire_month ? Number(update.expire_month) : undefined;
        const newExpYear = update.expire_year ? Number(update.expire_year) : undefined;
        return {
          updateId: update.id,
          par: update.payment_account_reference,
          kind: update.kind,
          newExpMonth,
          newExpYear,
          newCard:
            update.pan && newExpMonth && newExpYear
              ? new CardDetails({ pan: update.pan, expMonth: newExpMonth, expYear: newExpYear })
              : undefined,
          updatedAt: new Date(update.updated_at),
        };
      });
    },
  };
}
