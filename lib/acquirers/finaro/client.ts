// Finaro connector: plumbing around the pure transformers. One endpoint, form-urlencoded key=value
// requests signed with `K`, url-encoded key=value answers (docs/acquirers.md, "Finaro"). The account's MID (`M`) and signature key
// come with each call (./credentials.ts): one connector serves every merchant's MID.
import { z } from "zod";
import { CardDetails } from "../../cards/card-details";
import { log } from "../../observability/logger";
import { parseAcquirerJson } from "../plumbing/parse-acquirer-json";
import { basicAuth, failureFromOutcome, send, unreadableAnswer } from "../plumbing/http";
import type { FinaroCredentials } from "./credentials";
import { formed } from "../plumbing/request-not-formed";
import { RESPONSE_CODES, everyLookupKind, type AcquirerConnector, type CardUpdate, type ConnectorCall, type LookupKind, type ProcessorResult } from "../contract";
import { randomUUID } from "node:crypto";
import { checkFinaroAnswerSignature, finaroSignature } from "./signature";
import {
  FINARO_PARTIAL_APPROVAL,
  FINARO_SANDBOX_NOT_FOUND,
  toFinaroRetrieve,
  fromFinaroResponse,
  parseFinaroBody,
  toFinaroAuthorize,
  toFinaroCapture,
  toFinaroPayout,
  toFinaroRefund,
  toFinaroVoid,
  type FinaroResponse,
} from "./transformers";

export const finaroSettings = z.object({
  /** The gateway endpoint, e.g. https://intconsole.credorax.com/intenv/service/gateway */
  baseUrl: z.url(),
  timeoutMs: z.number().int().positive(),
  /** The base URL is our sandbox with its extensions on (registered by the launcher): its look-up conventions may be relied on. */
  sandboxExtensions: z.boolean().optional(),
  /**
   * Check the answer's `K` (lib/acquirers/finaro/signature.ts). Finaro does not publish how answers
   * are signed: on for our sandbox, which signs them the way requests are signed; for a configured
   * gateway only when FINARO_ANSWER_SIGNATURE=verify (once Finaro confirms the algorithm).
   */
  verifyAnswerSignature: z.boolean().optional(),
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

  /**
   * An answer whose `K` does not hold cannot be trusted: whether the gateway acted is unknown. A
   * refusal may come without any K ([AM-CR-U] L1299-1301, [MK-CR] L356): that is what it says.
   */
  function answerTrusted(text: string, parsed: { Z2: string }, call: ConnectorCall<FinaroCredentials>): boolean {
    if (!settings.verifyAnswerSignature) return true;
    const check = checkFinaroAnswerSignature(text, call.credentials.signatureKey);
    return check === "valid" || (check === "missing" && Number(parsed.Z2) < 0);
  }

  /** The result, and the answer it came from when there was a trusted one. */
  async function post(
    fields: Record<string, string>,
    call: ConnectorCall<FinaroCredentials>,
    eci?: string,
  ): Promise<{ result: ProcessorResult; answer?: FinaroResponse }> {
    const outcome = await sendSigned(fields, call);
    if (outcome.kind !== "response") return { result: failureFromOutcome(outcome, "finaro", settings.timeoutMs) };
    const parsed = outcome.status === 200 ? parseFinaroBody(outcome.text) : undefined;
    if (!parsed) return { result: unreadableAnswer("finaro", outcome.status) };
    if (!answerTrusted(outcome.text, parsed, call)) {
      return {
        result: {
          status: "failed",
          failure: "indeterminate",
          responsecode: RESPONSE_CODES.systemError,
          message: "finaro's answer carries a signature (K) that does not hold: whether it acted is unknown",
        },
      };
    }
    return { result: fromFinaroResponse(parsed, eci), answer: parsed };
  }

  /** Sends what `build` forms, or answers why it cannot be formed (nothing sent). */
  async function postFormed(
    build: () => Record<string, string>,
    call: ConnectorCall<FinaroCredentials>,
    eci?: string,
  ): Promise<{ result: ProcessorResult; answer?: FinaroResponse }> {
    const fields = formed("finaro", build);
    return fields.ok ? post(fields.value, call, eci) : { result: fields.result };
  }

  /**
   * Z2 10, a partial approval: the merchant asked for the whole amount, so the partial hold is voided
   * at once and the authorization is declined. A void that fails leaves a hold an operator releases
   * (docs/decisions/0107-speaking-clearhaus-and-finaro-exactly.md).
   */
  async function voidPartialApproval(
    { result, answer }: { result: ProcessorResult; answer?: FinaroResponse },
    operationId: string,
    call: ConnectorCall<FinaroCredentials>,
  ): Promise<ProcessorResult> {
    const reference = answer?.Z1;
    if (Number(answer?.Z2) !== FINARO_PARTIAL_APPROVAL || !reference) return result;
    const approvalCode = answer.Z4;
    const { result: voided } = await postFormed(
      () =>
        toFinaroVoid(
          {
            operationId: randomUUID().replace(/-/g, ""),
            authorizationReference: reference,
            authorizationCode: approvalCode,
            authorizationOperationId: operationId,
            amount: 0n,
            currency: "EUR",
          },
          call.credentials.merchantId,
        ),
      call,
    );
    if (voided.status === "approved")
      return { ...result, message: "finaro approved only part of the amount (Z2=10); the partial hold is voided" };
    log("processors").error(
      { event: "operator.needed", processor: "finaro", operationId },
      `operator needed: finaro partially approved authorization ${result.processorReference} and its void failed (${voided.responsecode}); release the hold by hand`,
    );
    return {
      ...result,
      message: `finaro approved only part of the amount (Z2=10); voiding the partial hold failed (${voided.responsecode})`,
    };
  }

  /**
   * O=101 past-transaction retrieval by the `a1` of the original request. A partial approval
   * (Z2 10) it finds for an authorization is what the direct answer would have been, and is
   * treated alike: the partial hold is voided and the authorization declined.
   */
  async function retrieve(operationId: string, kind: LookupKind, call: ConnectorCall<FinaroCredentials>): Promise<ProcessorResult | undefined> {
    const fields = toFinaroRetrieve(operationId, call.credentials.merchantId, randomUUID().replace(/-/g, ""));
    const outcome = await sendSigned(fields, call);
    if (outcome.kind !== "response") throw new Error(`finaro retrieval failed: ${outcome.kind}`);
    const parsed = outcome.status === 200 ? parseFinaroBody(outcome.text) : undefined;
    if (!parsed) throw new Error(`finaro retrieval answered HTTP ${outcome.status} with a body we could not read`);
    if (!answerTrusted(outcome.text, parsed, call)) throw new Error("finaro retrieval answered with a signature (K) that does not hold");
    if (Number(parsed.Z2) < 0) {
      if (settings.sandboxExtensions && parsed.Z2 === FINARO_SANDBOX_NOT_FOUND) return undefined;
      // The retrieval itself was refused (-9 malformed, -8 signature, -7 no response from gateway, ...):
      // that says nothing about the original request, whose outcome stays unknown.
      throw new Error(`finaro retrieval refused (Z2=${parsed.Z2})`);
    }
    const result = fromFinaroResponse(parsed);
    return kind === "authorize" ? voidPartialApproval({ result, answer: parsed }, operationId, call) : result;
  }

  return {
    name: "finaro",
    async authorize(request, call) {
      const sent = await postFormed(() => toFinaroAuthorize(request, call.credentials.merchantId), call, request.threeDs?.eci);
      return voidPartialApproval(sent, request.operationId, call);
    },
    capture: async (request, call) => (await postFormed(() => toFinaroCapture(request, call.credentials.merchantId), call)).result,
    refund: async (request, call) => (await postFormed(() => toFinaroRefund(request, call.credentials.merchantId), call)).result,
    void: async (request, call) => (await postFormed(() => toFinaroVoid(request, call.credentials.merchantId), call)).result,
    payout: async (request, call) => (await postFormed(() => toFinaroPayout(request, call.credentials.merchantId), call)).result,
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
    lookupOperation: ({ operationId, kind }, call) => retrieve(operationId, kind, call),
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
    /** A sandbox extension: Finaro publishes no account-updater feed. */
    async cardUpdates({ since }, call): Promise<CardUpdate[]> {
      if (!settings.sandboxExtensions) return [];
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
