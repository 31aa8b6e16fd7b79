// Clearhaus connector: Basic auth with the account's API key as user name and an empty password, form
// bodies with bracketed keys, HAL JSON answers ([CH] clearhaus/gateway-api-docs; docs/acquirers.md).
// A decline is HTTP 2xx with a status code other than 20000; a refused request is HTTP 400 with a
// status and no transaction. The credentials come with each call (./credentials.ts): one connector serves
// every merchant account; signing partners also sign each POST body (RS256-hex, getting_started/rsa_signature).
import { createPrivateKey, sign } from "node:crypto";
import { z } from "zod";
import { CardDetails } from "../../cards/card-details";
import { log } from "../../observability/logger";
import { parseAcquirerJson } from "../plumbing/parse-acquirer-json";
import { basicAuth, failureFromOutcome, send, unreadableAnswer } from "../plumbing/http";
import type { ClearhausCredentials } from "./credentials";
import { formed } from "../plumbing/request-not-formed";
import {
  LookupNotOfferedError,
  everyLookupKind,
  type AcquirerConnector,
  type CardUpdate,
  type ConnectorCall,
  type ProcessorResult,
} from "../contract";
import {
  clearhausReference,
  clearhausTransaction,
  fromClearhausAnswer,
  fromClearhausTransaction,
  toClearhausAmount,
  toClearhausAuthorize,
  toClearhausCredit,
} from "./transformers";

export const clearhausSettings = z.object({
  /** https://gateway.clearhaus.com, or https://gateway.test.clearhaus.com */
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /**
   * The base URL is our sandbox with its extensions on (the registry knows): its look-up by our
   * reference and its card-update feed may be used. Never true for a configured base URL.
   */
  sandboxExtensions: z.boolean().optional(),
});
export type ClearhausSettings = z.infer<typeof clearhausSettings>;

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

/** ISO 8583 "invalid transaction" for a path the API does not have. */
const RESPONSE_NOT_FOUND = "12";

function headersFor(credentials: ClearhausCredentials) {
  return { authorization: basicAuth(credentials.apiKey, ""), accept: CLEARHAUS_MEDIA_TYPE };
}

/** "Signature: <signing-api-key> RS256-hex <hex>" over the body, for signing partners (absent otherwise). */
export function clearhausSignatureHeader(credentials: ClearhausCredentials, body: string): Record<string, string> {
  if (!credentials.signingApiKey || !credentials.signingPrivateKey) return {};
  const signature = sign("sha256", Buffer.from(body), createPrivateKey(credentials.signingPrivateKey)).toString("hex");
  return { signature: `${credentials.signingApiKey} RS256-hex ${signature}` };
}

/** The account signs as a partner (its requests may leave out the CSC, [CH] card.md). */
function isSigning(credentials: ClearhausCredentials): boolean {
  return Boolean(credentials.signingApiKey && credentials.signingPrivateKey);
}

export function createClearhausConnector(input: ClearhausSettings): AcquirerConnector<ClearhausCredentials> {
  const settings = clearhausSettings.parse(input);
  const base = settings.baseUrl.replace(/\/+$/, "");

  /**
   * One POST. `operationId` also goes out as Idempotency-Key, which Clearhaus documents nowhere and
   * ignores (only our sandbox's extensions replay on it): nothing of ours relies on it.
   */
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
        ...clearhausSignatureHeader(call.credentials, body),
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
    // "401 Not Authorized", no body ([CH] authentication.md): refused, nothing done.
    if (outcome.status === 401)
      return { status: "failed", failure: "declined", responsecode: "03", message: "clearhaus refused the API key" };
    // Only a path the API does not have answers 404 (an unknown authorization id reads "invalid
    // transaction id" in a 400 body): a wrong base URL, nothing done.
    if (outcome.status === 404)
      return {
        status: "failed",
        failure: "declined",
        responsecode: RESPONSE_NOT_FOUND,
        message: `clearhaus has no ${path.replace(/\/[0-9a-f-]{36}\//, "/:id/")}`,
      };
    // A refusal carries a status and no transaction: "parameter 'amount' is required" (HTTP 400),
    // "invalid transaction id", "invalid signing api-key". Nothing was done.
    return fromClearhausAnswer(outcome.text, eci) ?? unreadableAnswer("clearhaus", outcome.status);
  }

  const ref = (id: string) => encodeURIComponent(id);

  /**
   * A 50000 authorization ("Clearhaus error") may hold the cardholder's funds, and voids are allowed
   * on it ([CH] changes.md): it is voided at once. Voided, nothing is held and the payment may go to
   * the next acquirer; otherwise the outcome stays unknown (the money rules take over).
   */
  async function voidErrorAuthorization(
    result: ProcessorResult,
    call: ConnectorCall<ClearhausCredentials>,
    operationId: string,
  ): Promise<ProcessorResult> {
    if (result.acquirerCode !== "50000" || !result.processorReference) return result;
    const voided = await post(`/authorizations/${ref(result.processorReference)}/voids`, {}, `${operationId.slice(0, 28)}void`, call);
    if (voided.status === "approved") {
      return {
        ...result,
        failure: "retryable",
        message: `clearhaus answered 50000 (Clearhaus error)${result.message ? `: ${result.message}` : ""}; its authorization is voided`,
      };
    }
    log("processors").error(
      { event: "operator.needed", processor: "clearhaus", operationId },
      `operator needed: clearhaus authorization ${result.processorReference} answered 50000 and its void failed (${voided.responsecode}); it may hold funds`,
    );
    return { ...result, message: `clearhaus answered 50000 and the void of its authorization failed (${voided.responsecode})` };
  }

  return {
    name: "clearhaus",
    async authorize(request, call) {
      const fields = formed("clearhaus", () => toClearhausAuthorize(request, { signed: isSigning(call.credentials) }));
      if (!fields.ok) return fields.result;
      const result = await post("/authorizations", fields.value, request.operationId, call, request.threeDs?.eci);
      return voidErrorAuthorization(result, call, request.operationId);
    },
    async capture(request, call) {
      const fields = formed("clearhaus", () => toClearhausAmount(request));
      if (!fields.ok) return fields.result;
      return post(`/authorizations/${ref(request.authorizationReference)}/captures`, fields.value, request.operationId, call);
    },
    async refund(request, call) {
      const fields = formed("clearhaus", () => toClearhausAmount(request));
      if (!fields.ok) return fields.result;
      return post(`/authorizations/${ref(request.authorizationReference)}/refunds`, fields.value, request.operationId, call);
    },
    // "No parameters are needed" ([CH] voids.md).
    void: (request, call) => post(`/authorizations/${ref(request.authorizationReference)}/voids`, {}, request.operationId, call),
    async payout(request, call) {
      const fields = formed("clearhaus", () => toClearhausCredit(request));
      if (!fields.ok) return fields.result;
      return post("/credits", fields.value, request.operationId, call);
    },
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
      // Fixed texts only: JSON.parse's own message would quote the body (lib/acquirers/plumbing/parse-acquirer-json.ts).
      return fromClearhausTransaction(parseAcquirerJson(outcome.text, clearhausTransaction, "clearhaus look-up"));
    },
    /** A sandbox extension: Clearhaus publishes no account-updater feed. */
    async cardUpdates({ since }, call): Promise<CardUpdate[]> {
      if (!settings.sandboxExtensions) return [];
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
