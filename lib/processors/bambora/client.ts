// Bambora connector: Basic auth `accesstoken@merchantnumber:secrettoken`, JSON bodies, `meta.result`.
// One base URL serves the paths of Bambora's service hosts (authorize, transaction, payout, card updates).
import { z } from "zod";
import { CardDetails } from "../../cards/card-details";
import { parseAcquirerJson } from "../parse-acquirer-json";
import { basicAuth, failureFromOutcome, send, unreadableAnswer } from "../http";
import {
  LookupNotOfferedError,
  everyLookupKind,
  type CallOptions,
  type CardUpdate,
  type LookupKind,
  type ProcessorConnector,
  type ProcessorResult,
} from "../types";
import { bamboraResponse, fromBamboraResponse, toBamboraAuthorize, toBamboraPayout } from "./transformers";

export const bamboraSettings = z.object({
  baseUrl: z.url(),
  accessToken: z.string().min(1),
  merchantNumber: z.string().min(1),
  secretToken: z.string().min(1),
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

export function createBamboraConnector(input: BamboraSettings): ProcessorConnector {
  const settings = bamboraSettings.parse(input);
  const base = settings.baseUrl.replace(/\/+$/, "");
  const headers = {
    authorization: basicAuth(`${settings.accessToken}@${settings.merchantNumber}`, settings.secretToken),
    accept: "application/json",
    "x-epay-system": "card-payment-service",
  };

  /** `operationId` goes out as Idempotency-Key (as the ePay API takes it): a retried call must not act twice. */
  async function call(
    path: string,
    body: unknown,
    operationId: string,
    options: CallOptions | undefined,
    eci?: string,
  ): Promise<ProcessorResult> {
    const outcome = await send({
      url: `${base}${path}`,
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "idempotency-key": operationId },
      body: JSON.stringify(body),
      timeoutMs: settings.timeoutMs,
      signal: options?.signal,
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

  async function lookup(kind: LookupKind, operationId: string, options: CallOptions | undefined): Promise<ProcessorResult | undefined> {
    if (!settings.sandboxExtensions) throw new LookupNotOfferedError("bambora", kind);
    const outcome = await send({
      url: `${base}/transactions?orderid=${encodeURIComponent(operationId)}`,
      method: "GET",
      headers,
      timeoutMs: settings.timeoutMs,
      signal: options?.signal,
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
    authorize: (request, options) => call("/authorize", toBamboraAuthorize(request), request.operationId, options, request.threeDs?.eci),
    capture: (request, options) =>
      call(
        `/transactions/${ref(request.authorizationReference)}/capture`,
        { amount: Number(request.amount), currency: request.currency },
        request.operationId,
        options,
      ),
    refund: (request, options) =>
      call(`/transactions/${ref(request.authorizationReference)}/credit`, { amount: Number(request.amount) }, request.operationId, options),
    void: (request, options) => call(`/transactions/${ref(request.authorizationReference)}/delete`, {}, request.operationId, options),
    payout: (request, options) => call("/payouts", toBamboraPayout(request), request.operationId, options),
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
    lookupOperation: ({ kind, operationId }, options) => lookup(kind, operationId, options),
    async cardUpdates({ since }, options): Promise<CardUpdate[]> {
      const outcome = await send({
        url: `${base}/cardupdates?since=${encodeURIComponent(since.toISOString())}`,
        method: "GET",
        headers,
        timeoutMs: settings.timeoutMs,
        signal: options?.signal,
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
