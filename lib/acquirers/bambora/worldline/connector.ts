// The Worldline Direct connector of bambora accounts on the `worldline` platform (issue 39,
// decisions 0175-0176): plumbing only. Requests are built by ./transformers.ts and signed by
// ./request.ts, sent through the connectors' one `send()` (time-out, answer ladder, observation;
// its egress guard is for links taken from answers, decision 0211, not for the endpoint configured
// here), and answers read back by ./transformers.ts into the neutral result. Every POST carries our
// operation id as `X-GCS-Idempotence-Key`, and every capture, refund and cancel as its
// `operationReferences.merchantReference`, so an answer lost in between is found again.
import { failureFromOutcome, send } from "../../plumbing/http";
import {
  LookupNotOfferedError,
  RESPONSE_CODES,
  type AcquirerConnector,
  type AuthorizeRequest,
  type ConnectorCall,
  type LookupCapabilities,
  type Money,
  type ProcessorResult,
} from "../../contract";
import { worldlinePaths } from "./endpoints";
import { worldlineRequest, type WorldlineCredentials } from "./request";
import {
  WorldlineInputError,
  findWorldlineOperation,
  fromWorldlineAnswer,
  fromWorldlineOperation,
  toWorldlineCancel,
  toWorldlineCapture,
  toWorldlinePayment,
  toWorldlineRefund,
  type WorldlineOperationKind,
  type WorldlineResult,
  type WorldlineStoredCredential,
} from "./transformers";

/** What a capture, refund and void request all carry. */
type FollowUpOf = Money & { operationId: string; authorizationReference: string };

export interface WorldlineSettings {
  /** The platform's host for the account's mode (./endpoints.ts WORLDLINE_HOSTS), or a sandbox. */
  baseUrl: string;
  timeoutMs: number;
  /** The clock the request's Date header and signature use (tests). */
  now?: () => Date;
}

/**
 * What a look-up by our reference is worth (decision 0176). A capture, refund or cancel is found in
 * GetPaymentDetails, which lists "the complete list of operations executed on the payment" with the
 * reference we gave each: absent from a successful answer, it was never made. Direct has no search of
 * payments by the merchant's reference: an authorization whose answer was lost is found only by
 * sending the same request with the same idempotence key, which needs the card again. authorize()
 * does so once while it holds the card; the resolver does not hold it, so an authorization still
 * unknown after that waits for an operator (who sees it in the Merchant Portal).
 */
const IN_PAYMENT_DETAILS = {
  lookup: true,
  notFoundIsProof: true,
  source: "Worldline Direct GET /v2/{merchantId}/payments/{paymentId}/details, operations[] by merchantReference",
} as const;

export const WORLDLINE_LOOKUPS: LookupCapabilities = {
  authorize: {
    lookup: false,
    notFoundIsProof: false,
    source:
      "Worldline Direct has no payment search by merchant reference; the authorization asks once more under the same idempotence key while it holds the card, and after that an operator settles (decision 0176)",
  },
  capture: IN_PAYMENT_DETAILS,
  refund: IN_PAYMENT_DETAILS,
  void: IN_PAYMENT_DETAILS,
  payout: { lookup: false, notFoundIsProof: false, source: "payouts are not offered on bambora's worldline platform here" },
};

/** The neutral result of one Worldline answer. */
export function toProcessorResult(result: WorldlineResult): ProcessorResult {
  switch (result.kind) {
    case "approved":
      return {
        status: "approved",
        responsecode: RESPONSE_CODES.approved,
        ...(result.authorizationCode ? { authorizationcode: result.authorizationCode.slice(0, 8) } : {}),
        processorReference: result.id,
        ...(result.eci ? { eci: result.eci.padStart(2, "0") } : {}),
        ...(result.par ? { par: result.par } : {}),
        ...(result.schemeTransactionId ? { scheme: { schemeTransactionId: result.schemeTransactionId } } : {}),
        acquirerCode: result.status,
        declineClass: "approved",
        ...(result.final ? {} : { message: `worldline: ${result.status} (the platform sends it on)` }),
      };
    case "declined":
      return {
        status: "declined",
        failure: "declined",
        responsecode: result.decline.iso,
        ...(result.id ? { processorReference: result.id } : {}),
        acquirerCode: result.decline.code || result.status,
        declineClass: result.decline.class,
        message: `worldline: ${result.decline.meaning}${result.decline.code ? ` (${result.decline.code})` : ""}`,
      };
    case "pending":
      // Accepted and not decided, or the same key still being processed: the outcome is unknown until looked up.
      return {
        status: "failed",
        failure: "indeterminate",
        responsecode: RESPONSE_CODES.timeout,
        ...(result.id ? { processorReference: result.id } : {}),
        acquirerCode: result.status,
        message: `worldline: ${result.reason} (${result.status})`,
      };
    case "unknown":
      return {
        status: "failed",
        failure: "indeterminate",
        responsecode: RESPONSE_CODES.unavailable,
        message: `worldline: ${result.reason}`,
      };
    case "refused":
      return {
        status: "failed",
        failure: "declined",
        responsecode: result.httpStatus === 401 || result.httpStatus === 403 ? "03" : RESPONSE_CODES.invalidTransaction,
        acquirerCode: result.code,
        declineClass: "technical",
        message: `worldline refused the request (HTTP ${result.httpStatus}): ${result.message}`,
      };
  }
}

/** No answer that names a payment: the platform's outcome is unknown (an uncertain status of a named payment is its answer). */
const isOutcomeLost = (result: ProcessorResult) => result.status === "failed" && result.failure === "indeterminate" && !result.processorReference;

/** Refused here, before anything is sent: the same request would be refused again. */
const refusedHere = (message: string): ProcessorResult => ({
  status: "failed",
  failure: "declined",
  responsecode: RESPONSE_CODES.invalidTransaction,
  declineClass: "technical",
  message: `worldline: ${message}`,
});

/** The card-on-file framing of an authorization (./transformers.ts WorldlineStoredCredential). */
function storedCredentialOf(request: AuthorizeRequest): WorldlineStoredCredential | undefined {
  const onFile = request.credentialOnFile;
  if (!onFile) return undefined;
  if (onFile.initiator === "merchant")
    return {
      initiator: "merchant",
      type: onFile.paymentType === "scheduled" ? "recurring" : "unscheduled",
      ...(onFile.previousSchemeTransactionId ? { initialSchemeTransactionId: onFile.previousSchemeTransactionId } : {}),
    };
  if (onFile.usesStoredCredential) return { initiator: "cardholder", sequence: "subsequent" };
  return onFile.storeCredential ? { initiator: "cardholder", sequence: "first" } : undefined;
}

export function createWorldlineConnector(settings: WorldlineSettings): AcquirerConnector<WorldlineCredentials> {
  const now = settings.now ?? (() => new Date());

  /** One signed request (./request.ts) through the connectors' `send()`. */
  const sendSigned = (
    connectorCall: ConnectorCall<WorldlineCredentials>,
    request: { method: "GET" | "POST"; path: string; body?: unknown; idempotenceKey?: string },
  ) =>
    send({
      ...worldlineRequest({ baseUrl: settings.baseUrl, credentials: connectorCall.credentials, ...request, now: now() }),
      timeoutMs: settings.timeoutMs,
      signal: connectorCall.signal,
    });

  /**
   * POSTs the body `makeBody` builds, our operation id its idempotence key. A value the platform
   * cannot take (WorldlineInputError) is refused here, without a call.
   */
  async function post(
    kind: WorldlineOperationKind,
    path: string,
    makeBody: () => unknown,
    idempotenceKey: string,
    connectorCall: ConnectorCall<WorldlineCredentials>,
  ): Promise<ProcessorResult> {
    let body: unknown;
    try {
      body = makeBody();
    } catch (error) {
      if (error instanceof WorldlineInputError) return refusedHere(error.message);
      throw error;
    }
    const outcome = await sendSigned(connectorCall, { method: "POST", path, body, idempotenceKey });
    if (outcome.kind !== "response") return failureFromOutcome(outcome, "worldline", settings.timeoutMs);
    let json: unknown;
    try {
      json = outcome.text ? JSON.parse(outcome.text) : undefined;
    } catch {
      json = undefined;
    }
    return toProcessorResult(fromWorldlineAnswer(kind, outcome.status, json));
  }

  /**
   * A capture, refund or cancel of the payment the authorization made (its processor reference): our
   * operation id is the body's merchantReference and the idempotence key.
   */
  const followUp =
    (kind: Exclude<WorldlineOperationKind, "payment">, toBody: (input: { reference: string } & Money) => unknown) =>
    (request: FollowUpOf, connectorCall: ConnectorCall<WorldlineCredentials>) =>
      post(
        kind,
        worldlinePaths[kind](connectorCall.credentials.merchantId, request.authorizationReference),
        () => toBody({ reference: request.operationId, amount: request.amount, currency: request.currency }),
        request.operationId,
        connectorCall,
      );

  return {
    name: "bambora",
    async authorize(request, connectorCall) {
      const makeBody = () =>
        toWorldlinePayment({
          reference: request.operationId,
          amount: request.amount,
          currency: request.currency,
          card: request.card,
          capture: "later",
          threeDs: request.threeDs
            ? {
                eci: request.threeDs.eci,
                authenticationValue: request.threeDs.authenticationValue,
                dsTransId: request.threeDs.dsTransId,
                acsTransId: request.threeDs.acsTransId,
                version: request.threeDs.version,
                flow: request.threeDs.messageType === "RReq" ? "challenge" : "frictionless",
              }
            : undefined,
          storedCredential: storedCredentialOf(request),
          descriptor: request.textOnStatement ?? request.descriptor,
          customerIp: request.customerIp,
          customer: request.customer,
        });
      const path = worldlinePaths.createPayment(connectorCall.credentials.merchantId);
      let result = await post("payment", path, makeBody, request.operationId, connectorCall);
      // The answer was lost (no answer, 5xx, 409 in progress): Direct has no search by our reference,
      // but the same request under the same key answers "with the same outcome as the original
      // request", or makes the one payment if the first never arrived (decision 0176). It needs the
      // card, which only this call holds: asked once more now; still unknown, an operator settles.
      if (isOutcomeLost(result) && !connectorCall.signal?.aborted) result = await post("payment", path, makeBody, request.operationId, connectorCall);
      return result.status === "approved" && request.threeDs && !result.eci ? { ...result, eci: request.threeDs.eci } : result;
    },
    capture: followUp("capture", toWorldlineCapture),
    // A refund names the payment (Direct refunds "a payment"), not one of its captures.
    refund: followUp("refund", toWorldlineRefund),
    void: followUp("cancel", toWorldlineCancel),
    lookups: WORLDLINE_LOOKUPS,
    async lookupOperation({ kind, operationId, authorizationReference }, connectorCall) {
      if (!WORLDLINE_LOOKUPS[kind].lookup) throw new LookupNotOfferedError("bambora", kind);
      if (!authorizationReference) throw new Error(`worldline finds a ${kind} through its payment, whose id was not given`);
      const outcome = await sendSigned(connectorCall, {
        method: "GET",
        path: worldlinePaths.paymentDetails(connectorCall.credentials.merchantId, authorizationReference),
      });
      if (outcome.kind !== "response") throw new Error(`worldline payment details: no answer (${outcome.kind})`);
      if (outcome.status !== 200) throw new Error(`worldline payment details answered HTTP ${outcome.status}`);
      let json: unknown;
      try {
        json = JSON.parse(outcome.text);
      } catch {
        throw new Error("worldline payment details: an answer that is not JSON");
      }
      const found = findWorldlineOperation(json, operationId);
      if ("unreadable" in found) throw new Error("worldline payment details: an answer this connector cannot read");
      if (!found.found) return undefined;
      return toProcessorResult(fromWorldlineOperation(kind === "void" ? "cancel" : kind === "refund" ? "refund" : "capture", found.found));
    },
    /** GET …/services/testconnection ([SDK-JAVA] ServicesClient.testConnection): changes nothing; 401 or 403 refuses the key. */
    async checkConnection(connectorCall) {
      const outcome = await sendSigned(connectorCall, { method: "GET", path: worldlinePaths.testConnection(connectorCall.credentials.merchantId) });
      if (outcome.kind !== "response") return { ok: false, message: `GET /services/testconnection: no answer (${outcome.kind})` };
      if (outcome.status === 200) return { ok: true, message: "GET /services/testconnection: HTTP 200, Worldline accepted the API key" };
      return {
        ok: false,
        message: `GET /services/testconnection: HTTP ${outcome.status}${outcome.status === 401 || outcome.status === 403 ? ", Worldline refused the PSPID or the API key" : ""}`,
      };
    },
  };
}
