// Xacquirer connector: plumbing around the pure transformers. REPLACE the paths, headers and answer
// handling with the acquirer's reference; keep the shape: one `send` per call, network failures and
// unreadable answers through the plumbing, nothing logged of a request or an answer.
import { z } from "zod";
import { everyLookupKind, type AcquirerConnector, type ConnectorCall, type ProcessorResult } from "../contract";
import type { AcquirerName } from "../names";
import { failureFromOutcome, send, unreadableAnswer } from "../plumbing/http";
import { parseAcquirerJson } from "../plumbing/parse-acquirer-json";
import type { XacquirerCredentials } from "./credentials";
import { fromXacquirerError, fromXacquirerTransaction, toXacquirerFollowUp, toXacquirerPayment, xacquirerError, xacquirerTransaction } from "./transformers";

/** Replaced by `npm run new:acquirer <name>` with the new acquirer's name. */
export const XACQUIRER_NAME = "xacquirer" as AcquirerName;

export const xacquirerSettings = z.object({
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /** The base URL is our sandbox with its extensions on: its sandbox-only conventions may be relied on. */
  sandboxExtensions: z.boolean().optional(),
});
export type XacquirerSettings = z.infer<typeof xacquirerSettings>;

export function createXacquirerConnector(input: XacquirerSettings): AcquirerConnector<XacquirerCredentials> {
  const settings = xacquirerSettings.parse(input);
  const base = settings.baseUrl.replace(/\/+$/, "");
  const headers = (call: ConnectorCall<XacquirerCredentials>) => ({ authorization: `Bearer ${call.credentials.apiKey}`, accept: "application/json" });

  async function post(path: string, body: unknown, call: ConnectorCall<XacquirerCredentials>, eci?: string): Promise<ProcessorResult> {
    const outcome = await send({
      url: `${base}${path}`,
      method: "POST",
      headers: { ...headers(call), "content-type": "application/json" },
      body: JSON.stringify(body),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") return failureFromOutcome(outcome, XACQUIRER_NAME, settings.timeoutMs);
    if (outcome.status >= 500) return unreadableAnswer(XACQUIRER_NAME, outcome.status);
    let json: unknown;
    try {
      json = JSON.parse(outcome.text);
    } catch {
      return unreadableAnswer(XACQUIRER_NAME, outcome.status);
    }
    if (outcome.status === 200) {
      const transaction = xacquirerTransaction.safeParse(json);
      return transaction.success ? fromXacquirerTransaction(transaction.data, eci) : unreadableAnswer(XACQUIRER_NAME, outcome.status);
    }
    const error = xacquirerError.safeParse(json);
    return error.success && outcome.status >= 400 ? fromXacquirerError(error.data) : unreadableAnswer(XACQUIRER_NAME, outcome.status);
  }

  const ref = (id: string) => encodeURIComponent(id);
  return {
    name: XACQUIRER_NAME,
    authorize: (request, call) => post("/authorizations", toXacquirerPayment(request), call, request.threeDs?.eci),
    capture: (request, call) => post(`/authorizations/${ref(request.authorizationReference)}/captures`, toXacquirerFollowUp(request), call),
    refund: (request, call) =>
      post(`/authorizations/${ref(request.captureReference ?? request.authorizationReference)}/refunds`, toXacquirerFollowUp(request), call),
    void: (request, call) => post(`/authorizations/${ref(request.authorizationReference)}/voids`, toXacquirerFollowUp(request), call),
    payout: (request, call) => post("/payouts", toXacquirerPayment(request), call),
    // REPLACE with what the acquirer's look-up by our reference is worth (LookupCapability).
    lookups: everyLookupKind({ lookup: true, notFoundIsProof: false, source: "xacquirer: GET /transactions?reference= (template: replace from the reference)" }),
    async lookupOperation({ operationId }, call) {
      const outcome = await send({
        url: `${base}/transactions?reference=${ref(operationId)}`,
        method: "GET",
        headers: headers(call),
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
      });
      if (outcome.kind !== "response") throw new Error(`${XACQUIRER_NAME} look-up failed: ${outcome.kind}`);
      if (outcome.status === 404) return undefined;
      if (outcome.status !== 200) throw new Error(`${XACQUIRER_NAME} look-up answered HTTP ${outcome.status}`);
      return fromXacquirerTransaction(parseAcquirerJson(outcome.text, xacquirerTransaction, `${XACQUIRER_NAME} look-up`));
    },
    async checkConnection(call) {
      const outcome = await send({ url: `${base}/account`, method: "GET", headers: headers(call), timeoutMs: settings.timeoutMs, signal: call.signal });
      if (outcome.kind !== "response") return { ok: false, message: `GET /account: no answer (${outcome.kind})` };
      if (outcome.status === 401 || outcome.status === 403) return { ok: false, message: `GET /account: HTTP ${outcome.status}, the API key is refused` };
      return outcome.status === 200 ? { ok: true, message: "GET /account: HTTP 200, the API key is accepted" } : { ok: false, message: `GET /account: HTTP ${outcome.status}` };
    },
  };
}
