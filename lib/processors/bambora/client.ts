// Bambora connector: Basic auth `accesstoken@merchantnumber:secrettoken`, JSON bodies, `meta.result`.
// One base URL serves the paths of Bambora's service hosts (authorize, transaction, payout, card updates).
// The account's tokens and merchant number come with each call (lib/processors/credentials.ts).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { CardDetails } from "../../cards/card-details";
import { parseAcquirerJson } from "../parse-acquirer-json";
import { basicAuth, failureFromOutcome, send, unreadableAnswer } from "../http";
import type { BamboraCredentials } from "../credentials";
import {
  LookupNotOfferedError,
  everyLookupKind,
  type AcquirerConnector,
  type CardUpdate,
  type ConnectorCall,
  type LookupKind,
  type ProcessorResult,
} from "../types";
import { bamboraResponse, fromBamboraResponse, toBamboraAuthorize, toBamboraPayout } from "./transformers";

export const bamboraSettings = z.object({
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /** The base URL is our sandbox (registered by the launcher): its look-up extension may be used. */
  sandboxExtensions: z.boolean().optional(),
});
export type BamboraSettings = z.infer<typeof bamboraSettings>;

const transactionSearch = z.object({
  meta: z.object({ result: z.literal(true) }),
  transactions: z.array(z.object({ id: z.string(), approved: z.boolean(), authorizationcode: z.string().optional() })),
});

const cardUpdateFeed = z.object({
  meta: z.object({ result: z.literal(true) }),
  cardupdates: z.array(
    z.object({
      id: z.string(),
      paymentaccountreference: z.string(),
      kind: z.enum(["expiry", "pan", "closed"]),
      expmonth: z.number().optional(),
      expyear: z.number().optional(),
      number: z.string().optional(),
      updated: z.string(),
    }),
  ),
});

function headersFor(credentials: BamboraCredentials) {
  return {
    authorization: basicAuth(`${credentials.accessToken}@${credentials.merchantNumber}`, credentials.secretToken),
    accept: "application/json",
    "x-epay-system": "card-payment-service",
  };
}

export function createBamboraConnector(input: BamboraSettings): AcquirerConnector<BamboraCredentials> {
  const settings = bamboraSettings.parse(input);
  const base = settings.baseUrl.replace(/\/+$/, "");

  /** `operationId` goes out as Idempotency-Key (as the ePay API takes it): a retried call must not act twice. */
  async function call(
    path: string,
    body: unknown,
    operationId: string,
    call: ConnectorCall<BamboraCredentials>,
    eci?: string,
  ): Promise<ProcessorResult> {
    const outcome = await send({
      url: `${base}${path}`,
      method: "POST",
      headers: { ...headersFor(call.credentials), "content-type": "application/json", "idempotency-key": operationId },
      body: JSON.stringify(body),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") return failureFromOutcome(outcome, "bambora", settings.timeoutMs);
    // Whatever a 5xx body says, the acquirer may have acted: indeterminate.
    if (outcome.status >= 500) return unreadableAnswer("bambora", outcome.status);
    let json: unknown;
    try {
      json = JSON.parse(outcome.text);
    } catch {
      return unreadableAnswer("bambora", outcome.status);
    }
    const parsed = bamboraResponse.safeParse(json);
    if (!parsed.success) return unreadableAnswer("bambora", outcome.status);
    return fromBamboraResponse(parsed.data, eci);
  }

  const ref = (id: string) => encodeURIComponent(id);

  async function lookup(kind: LookupKind, operationId: string, call: ConnectorCall<BamboraCredentials>): Promise<ProcessorResult | undefined> {
    if (!settings.sandboxExtensions) throw new LookupNotOfferedError("bambora", kind);
    const outcome = await send({
      url: `${base}/transactions?orderid=${encodeURIComponent(operationId)}`,
      method: "GET",
      headers: headersFor(call.credentials),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response" || outcome.status !== 200) throw new Error("bambora transaction look-up unavailable");
    const found = parseAcquirerJson(outcome.text, transactionSearch, "bambora transaction look-up").transactions[0];
    if (!found) return undefined;
    return found.approved
      ? { status: "approved", responsecode: "00", authorizationcode: found.authorizationcode, processorReference: found.id }
      : { status: "declined", failure: "declined", responsecode: "05", processorReference: found.id };
  }

  return {
    name: "bambora",
    authorize: (request, account) => call("/authorize", toBamboraAuthorize(request), request.operationId, account, request.threeDs?.eci),
    capture: (request, account) =>
      call(
        `/transactions/${ref(request.authorizationReference)}/capture`,
        { amount: Number(request.amount), currency: request.currency },
        request.operationId,
        account,
      ),
    refund: (request, account) =>
      call(`/transactions/${ref(request.authorizationReference)}/credit`, { amount: Number(request.amount) }, request.operationId, account),
    void: (request, account) => call(`/transactions/${ref(request.authorizationReference)}/delete`, {}, request.operationId, account),
    payout: (request, account) => call("/payouts", toBamboraPayout(request), request.operationId, account),
    // Online Checkout v1 has no search by order id: only GET /transactions/{id} and its
    // transactionoperations, by Bambora's own id [BB-WC][BB-MG], which a lost answer never gave us.
    // Our sandbox serves GET /transactions?orderid= (a sandbox-only extension, docs/acquirers.md):
    // authorizations and payouts carry our operation id as their order id, captures, credits and
    // deletes as their Idempotency-Key. Against the real API an unknown outcome waits for an operator.
    lookups: everyLookupKind(
      settings.sandboxExtensions
        ? { lookup: true, notFoundIsProof: true, source: "bambora sandbox extension GET /transactions?orderid=" }
        : { lookup: false, notFoundIsProof: false, source: "Bambora Online Checkout v1 has no look-up by our reference [BB-WC][BB-MG]" },
    ),
    lookupOperation: ({ kind, operationId }, account) => lookup(kind, operationId, account),
    /**
     * A read of a transaction that does not exist (merchant-v1 GET /transactions/{id}, as the
     * official plugins read one): authenticated, moves nothing. HTTP 401 means the tokens or the
     * merchant number are refused; any other answer, "not found" included, that they are accepted.
     */
    async checkConnection(account) {
      const outcome = await send({
        url: `${base}/transactions/${randomUUID().replace(/-/g, "")}`,
        method: "GET",
        headers: headersFor(account.credentials),
        timeoutMs: settings.timeoutMs,
        signal: account.signal,
      });
      if (outcome.kind !== "response") return { ok: false, message: `GET /transactions/{id}: no answer (${outcome.kind})` };
      if (outcome.status === 401 || outcome.status === 403)
        return { ok: false, message: `GET /transactions/{id}: HTTP ${outcome.status}, Bambora refused the credentials` };
      if (outcome.status >= 500) return { ok: false, message: `GET /transactions/{id}: HTTP ${outcome.status}` };
      return {
        ok: true,
        message: `GET /transactions/{id} of an unknown transaction: HTTP ${outcome.status}; the credentials are accepted`,
      };
    },
    async cardUpdates({ since }, account): Promise<CardUpdate[]> {
      const outcome = await send({
        url: `${base}/cardupdates?since=${encodeURIComponent(since.toISOString())}`,
        method: "GET",
        headers: headersFor(account.credentials),
        timeoutMs: settings.timeoutMs,
        signal: account.signal,
      });
      if (outcome.kind !== "response" || outcome.status !== 200) throw new Error("bambora card-update feed unavailable");
      return parseAcquirerJson(outcome.text, cardUpdateFeed, "bambora card-update feed").cardupdates.map((update) => ({
        updateId: update.id,
        par: update.paymentaccountreference,
        kind: update.kind,
        newExpMonth: update.expmonth,
        newExpYear: update.expyear !== undefined ? 2000 + update.expyear : undefined,
        newCard:
          update.number && update.expmonth && update.expyear !== undefined
            ? new CardDetails({ pan: update.number, expMonth: update.expmonth, expYear: 2000 + update.expyear })
            : undefined,
        updatedAt: new Date(update.updated),
      }));
    },
  };
}
