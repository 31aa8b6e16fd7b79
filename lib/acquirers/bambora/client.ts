// Bambora North America Payments API v1 connector
// (docs/decisions/0106-bambora-on-the-north-america-payments-api.md): `Authorization: Passcode
// base64(merchant_id:passcode)`, JSON bodies, one host for the Payments and Reporting APIs
// (https://api.na.bambora.com, paths under /v1; test accounts use the same host). The account's
// merchant id and passcodes come with each call (./credentials.ts).
// What the API cannot do is refused here without a call: merchant-initiated payments (purchases
// only at Bambora), currencies other than CAD and USD; it has no payout and no card-update feed.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { failureFromOutcome, send, unreadableAnswer } from "../plumbing/http";
import type { BamboraCredentials } from "./credentials";
import { parseAcquirerJson } from "../plumbing/parse-acquirer-json";
import {
  LookupNotOfferedError,
  RESPONSE_CODES,
  type AcquirerConnector,
  type ConnectorCall,
  type LookupCapabilities,
  type LookupOperationRequest,
  type ProcessorResult,
} from "../contract";
import {
  BAMBORA_TYPES_BY_KIND,
  bamboraErrorResponse,
  bamboraOrderNumber,
  bamboraPaymentResponse,
  bamboraSearchResult,
  bamboraTransaction,
  fromBamboraCompletion,
  fromBamboraError,
  fromBamboraPayment,
  fromBamboraSearchRecord,
  isBamboraCurrency,
  toBamboraAdjustment,
  toBamboraCompletion,
  toBamboraOrderSearch,
  toBamboraPayment,
} from "./transformers";

export const bamboraSettings = z.object({
  /** https://api.na.bambora.com (the API's paths start with /v1), or a sandbox. */
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /**
   * Set by the registry for a sandbox it started. Bambora North America's look-ups are the real API's
   * (the report search, a transaction's adjustments), so the sandbox is asked exactly as Bambora is.
   */
  sandboxExtensions: z.boolean().optional(),
});
export type BamboraSettings = z.infer<typeof bamboraSettings>;

/**
 * What a look-up by our reference is worth at Bambora North America, per kind of operation (the
 * shape of the money rules' `lookups`, docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md). Payments, returns and
 * voids carry our `order_number`, which the report search (POST /v1/reports, criteria field 5
 * OrderNumber) finds; "If no records are found the API will return a 200 response message with an
 * empty array" (Swagger /reports). A completion inherits the pre-authorization's order number
 * (recorded answers [BNA-AM]), so it is found through the pre-authorization instead: GET
 * /v1/payments/{pre-auth id} lists its adjustments (`adjusted_by`, type PAC), and one pre-auth is
 * completed once (our capture rule), so a PAC there is our completion and none means none happened.
 */
export const BAMBORA_LOOKUPS: LookupCapabilities = {
  authorize: { lookup: true, notFoundIsProof: true, source: "Bambora NA POST /v1/reports, criteria OrderNumber [BNA]" },
  refund: { lookup: true, notFoundIsProof: true, source: "Bambora NA POST /v1/reports, criteria OrderNumber of the return [BNA]" },
  void: { lookup: true, notFoundIsProof: true, source: "Bambora NA POST /v1/reports, criteria OrderNumber of the void [BNA]" },
  capture: {
    lookup: true,
    notFoundIsProof: true,
    source: "Bambora NA GET /v1/payments/{pre-auth id}, adjusted_by[] of type PAC (one completion per pre-auth) [BNA]",
  },
  payout: { lookup: false, notFoundIsProof: false, source: "Bambora NA has no payouts" },
};

/** How far back the report search looks for one of our order numbers: its dates are in the account's own time zone, which we do not know. */
const SEARCH_WINDOW_DAYS = 400;

function headersFor(credentials: BamboraCredentials, passcode: "payments" | "reporting") {
  const secret = passcode === "payments" ? credentials.paymentsPasscode : credentials.reportingPasscode;
  return {
    authorization: `Passcode ${Buffer.from(`${credentials.merchantId}:${secret}`).toString("base64")}`,
    accept: "application/json",
    ...(credentials.subMerchantId ? { "sub-merchant-id": credentials.subMerchantId } : {}),
  };
}

/** The search window around now, wide enough for any account time zone: "YYYY-MM-DDTHH:mm:ss". */
function searchWindow(now = new Date()): { start: string; end: string } {
  const format = (date: Date) => date.toISOString().slice(0, 19);
  return {
    start: format(new Date(now.getTime() - SEARCH_WINDOW_DAYS * 86_400_000)),
    end: format(new Date(now.getTime() + 2 * 86_400_000)),
  };
}

const refusedHere = (message: string): ProcessorResult => ({ status: "failed", failure: "declined", responsecode: "58", message });

export function createBamboraConnector(input: BamboraSettings): AcquirerConnector<BamboraCredentials> {
  const settings = bamboraSettings.parse(input);
  const base = `${settings.baseUrl.replace(/\/+$/, "")}/v1`;

  async function post(path: string, body: unknown, call: ConnectorCall<BamboraCredentials>, eci?: string): Promise<ProcessorResult> {
    const outcome = await send({
      url: `${base}${path}`,
      method: "POST",
      headers: { ...headersFor(call.credentials, "payments"), "content-type": "application/json" },
      body: JSON.stringify(body),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") return failureFromOutcome(outcome, "bambora", settings.timeoutMs);
    // Whatever a 5xx body says ("category 4: technical problem ... 500+ range"), Bambora may have acted: indeterminate.
    if (outcome.status >= 500) return unreadableAnswer("bambora", outcome.status);
    if (outcome.status === 401 || outcome.status === 403)
      return {
        status: "failed",
        failure: "declined",
        responsecode: "03",
        message: `bambora refused the passcode (HTTP ${outcome.status})`,
      };
    // 302 is Bambora's own 3-D Secure redirect, which we never ask for (we pass our own results through).
    if (outcome.status === 302)
      return {
        status: "failed",
        failure: "declined",
        responsecode: RESPONSE_CODES.scaRequired,
        message: "bambora answered with its own 3-D Secure redirect: the account must be set up for 3-D Secure passthrough",
      };
    let json: unknown;
    try {
      json = JSON.parse(outcome.text);
    } catch {
      return unreadableAnswer("bambora", outcome.status);
    }
    if (outcome.status === 200) {
      const payment = bamboraPaymentResponse.safeParse(json);
      return payment.success ? fromBamboraPayment(payment.data, eci) : unreadableAnswer("bambora", outcome.status);
    }
    const error = bamboraErrorResponse.safeParse(json);
    return error.success ? fromBamboraError(error.data, eci) : unreadableAnswer("bambora", outcome.status);
  }

  /** Finds our completion among the pre-authorization's adjustments (Payments API passcode). */
  async function lookupCompletion(authorizationReference: string | undefined, call: ConnectorCall<BamboraCredentials>) {
    if (!authorizationReference) throw new Error("bambora finds a completion through its pre-authorization, whose id was not given");
    const outcome = await send({
      url: `${base}/payments/${encodeURIComponent(authorizationReference)}`,
      method: "GET",
      headers: headersFor(call.credentials, "payments"),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") throw new Error(`bambora transaction read failed: ${outcome.kind}`);
    if (outcome.status !== 200) throw new Error(`bambora transaction read answered HTTP ${outcome.status}`);
    const transaction = parseAcquirerJson(outcome.text, bamboraTransaction, "bambora transaction");
    const completions = (transaction.adjusted_by ?? []).filter((adjustment) => adjustment.type === "PAC");
    if (completions.length === 0) return undefined;
    if (completions.length > 1) throw new Error(`bambora lists ${completions.length} completions of one pre-authorization`);
    return fromBamboraCompletion(completions[0]!);
  }

  /** Finds our request by its order number in the report search (Reporting API passcode). */
  async function lookup({ kind, operationId, authorizationReference }: LookupOperationRequest, call: ConnectorCall<BamboraCredentials>) {
    if (kind === "payout") throw new LookupNotOfferedError("bambora", kind);
    if (kind === "capture") return lookupCompletion(authorizationReference, call);
    const orderNumber = bamboraOrderNumber(operationId);
    const outcome = await send({
      url: `${base}/reports`,
      method: "POST",
      headers: { ...headersFor(call.credentials, "reporting"), "content-type": "application/json" },
      body: JSON.stringify(toBamboraOrderSearch(orderNumber, searchWindow())),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") throw new Error(`bambora report search failed: ${outcome.kind}`);
    if (outcome.status !== 200) throw new Error(`bambora report search answered HTTP ${outcome.status}`);
    const types: readonly string[] = BAMBORA_TYPES_BY_KIND[kind];
    const found = parseAcquirerJson(outcome.text, bamboraSearchResult, "bambora report search").records.filter(
      (record) => record.trn_order_number === orderNumber && types.includes(record.trn_type),
    );
    if (found.length === 0) return undefined;
    // One request of ours is one transaction; two records under one order number would be Bambora's
    // 760 "Multiple Transaction Matches Found": not an answer to trust.
    if (found.length > 1) throw new Error(`bambora report search found ${found.length} transactions under one order number`);
    return fromBamboraSearchRecord(found[0]!);
  }

  const ref = (id: string) => encodeURIComponent(id);

  return {
    name: "bambora",
    authorize(request, call) {
      if (request.credentialOnFile?.initiator === "merchant")
        return Promise.resolve(
          refusedHere(
            "bambora: merchant-initiated payments can only be purchases at Bambora North America (card_on_file subsequent_*), not authorizations",
          ),
        );
      if (!isBamboraCurrency(request.currency))
        return Promise.resolve(refusedHere(`bambora: Bambora North America accounts settle CAD or USD, not ${request.currency}`));
      return post("/payments", toBamboraPayment(request), call, request.threeDs?.eci);
    },
    capture: (request, call) =>
      post(`/payments/${ref(request.authorizationReference)}/completions`, toBamboraCompletion(request.amount, request.currency), call),
    // A return refers to the purchase or the completion ("{transId} is the purchase or the completion").
    refund: (request, call) =>
      post(
        `/payments/${ref(request.captureReference ?? request.authorizationReference)}/returns`,
        toBamboraAdjustment(request.amount, request.currency, request.operationId),
        call,
      ),
    void: (request, call) =>
      post(
        `/payments/${ref(request.authorizationReference)}/void`,
        toBamboraAdjustment(request.amount, request.currency, request.operationId),
        call,
      ),
    // No payout and no account-updater feed at Bambora North America (docs/acquirers.md): the
    // bound connector answers the default refusal for them (lib/acquirers/contract.ts, refusalOf).
    lookups: BAMBORA_LOOKUPS,
    lookupOperation: (request, call) => lookup(request, call),
    /**
     * Two reads that change nothing: GET /v1/payments/{id} of a transaction that does not exist
     * (Payments API passcode) and a report search for an order number never used (Reporting API
     * passcode). HTTP 401 or 403 means that passcode is refused.
     */
    async checkConnection(call) {
      const checks: string[] = [];
      const payments = await send({
        url: `${base}/payments/${randomUUID().replace(/\D/g, "").slice(0, 9) || "0"}`,
        method: "GET",
        headers: headersFor(call.credentials, "payments"),
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (payments.kind !== "response") return { ok: false, message: `GET /v1/payments/{id}: no answer (${payments.kind})` };
      if (payments.status === 401 || payments.status === 403)
        return {
          ok: false,
          message: `GET /v1/payments/{id}: HTTP ${payments.status}, Bambora refused the merchant id or the Payments API passcode`,
        };
      if (payments.status >= 500) return { ok: false, message: `GET /v1/payments/{id}: HTTP ${payments.status}` };
      checks.push(`GET /v1/payments/{id} of an unknown transaction: HTTP ${payments.status}, the Payments API passcode is accepted`);
      const reports = await send({
        url: `${base}/reports`,
        method: "POST",
        headers: { ...headersFor(call.credentials, "reporting"), "content-type": "application/json" },
        body: JSON.stringify(toBamboraOrderSearch(bamboraOrderNumber(randomUUID().replace(/-/g, "")), searchWindow())),
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (reports.kind !== "response") return { ok: false, message: `${checks[0]}; POST /v1/reports: no answer (${reports.kind})` };
      if (reports.status !== 200)
        return {
          ok: false,
          message: `${checks[0]}; POST /v1/reports: HTTP ${reports.status}${reports.status === 401 || reports.status === 403 ? ", Bambora refused the Reporting API passcode" : ""}`,
        };
      checks.push("POST /v1/reports: HTTP 200, the Reporting API passcode is accepted");
      return { ok: true, message: checks.join("; ") };
    },
  };
}
