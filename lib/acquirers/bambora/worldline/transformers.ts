// Pure mapping between plain payment inputs and Worldline Direct's messages, and from Direct's
// answers to a neutral result. Every field and every status is listed with its reference in
// docs/acquirers.md, "Bambora on Worldline Direct". Inputs are plain on purpose: the connector that
// wires this into the acquirer registry builds them from its own request types.
import type { CardDetails } from "../../../cards/card-details";
import { schemeFromPan } from "../../../cards/card-scheme";
import { currencyExponent } from "../../../validation/currency";
import { classifyWorldlineDecline, type ClassifiedDecline } from "./decline-codes";
import {
  worldlineCancelResponse,
  worldlineCaptureResponse,
  worldlineCreatePaymentResponse,
  worldlineErrorResponse,
  worldlinePaymentDetailsResponse,
  worldlineRefundResponse,
  type WorldlineApiError,
  type WorldlineCancelRequest,
  type WorldlineCaptureRequest,
  type WorldlineCreatePaymentRequest,
  type WorldlineOperation,
  type WorldlinePaymentResponse,
  type WorldlineRefundRequest,
} from "./schemas";

/** Thrown when an input cannot be put into a Worldline request: the caller refuses before sending anything. */
export class WorldlineInputError extends Error {}

/** Payment product ids of the cards (Odoo's const.PAYMENT_METHODS_MAPPING; Dankort 123 from docs.direct "Dankort"). */
export const WORLDLINE_PAYMENT_PRODUCTS = { visa: 1, amex: 2, mastercard: 3, dankort: 123 } as const;

export interface WorldlineThreeDsInput {
  /** Two digits as the DS gives it ("05", "02"); Direct takes it as an integer. */
  eci: string;
  authenticationValue?: string;
  dsTransId?: string;
  acsTransId?: string;
  /** EMV 3DS message version, "2.2.0". */
  version: string;
  flow?: "frictionless" | "challenge";
}

/**
 * The stored-credential framing. A cardholder payment that stores the card is the first of an
 * unscheduled series; a merchant-initiated one is `unscheduled` (unscheduledCardOnFile*) or
 * `recurring` (isRecurring + recurringPaymentSequenceIndicator: the two are exclusive, "not allowed
 * if isRecurring is true").
 */
export type WorldlineStoredCredential =
  | { initiator: "cardholder"; sequence: "first" | "subsequent" }
  | { initiator: "merchant"; type: "unscheduled" | "recurring"; initialSchemeTransactionId?: string };

export interface WorldlinePaymentInput {
  /** Our operation id: `order.references.merchantReference`, and the idempotence key of the request. */
  reference: string;
  /** Minor units. */
  amount: bigint;
  currency: string;
  card: CardDetails;
  /** "later": a pre-authorization captured later; "now": a sale (instant capture). */
  capture: "later" | "now";
  threeDs?: WorldlineThreeDsInput;
  storedCredential?: WorldlineStoredCredential;
  /** A product the account is contracted for that the card number alone does not tell (Dankort, co-badged with Visa). */
  paymentProductId?: number;
  descriptor?: string;
  customerIp?: string;
  customer?: { email?: string; firstName?: string; surname?: string };
}

/** Minor units as the JSON integer Direct takes ("Amount in the smallest currency unit"). */
export function toWorldlineAmount(amount: bigint, currency: string): number {
  try {
    currencyExponent(currency); // an unknown currency is refused here, not at Worldline
  } catch {
    throw new WorldlineInputError(`${currency} is not an ISO 4217 currency Worldline takes`);
  }
  const value = Number(amount);
  if (!Number.isSafeInteger(value) || value < 0) throw new WorldlineInputError("the amount is not a non-negative integer of minor units");
  return value;
}

export function worldlinePaymentProduct(card: CardDetails, override?: number): number {
  if (override !== undefined) return override;
  const scheme = schemeFromPan(card.revealPan());
  if (!scheme) throw new WorldlineInputError("the card's scheme is not one Worldline is set up for here (visa, mastercard, amex)");
  return WORLDLINE_PAYMENT_PRODUCTS[scheme];
}

function externalAuthentication(threeDs: WorldlineThreeDsInput) {
  const eci = Number(threeDs.eci);
  if (!/^\d{1,2}$/.test(threeDs.eci) || eci > 7) throw new WorldlineInputError("the 3-D Secure ECI is not 0 to 7");
  // "cavv ... This is mandatory for ECI 2 and 5."
  if ((eci === 2 || eci === 5) && !threeDs.authenticationValue)
    throw new WorldlineInputError("a fully authenticated result (ECI 2 or 5) needs its CAVV");
  return {
    eci,
    ...(threeDs.authenticationValue ? { cavv: threeDs.authenticationValue } : {}),
    ...(threeDs.dsTransId ? { directoryServerTransactionId: threeDs.dsTransId } : {}),
    ...(threeDs.acsTransId ? { acsTransactionId: threeDs.acsTransId } : {}),
    threeDSecureVersion: threeDs.version,
    ...(threeDs.flow ? { flow: threeDs.flow } : {}),
  };
}

function storedCredentialFields(stored: WorldlineStoredCredential | undefined) {
  if (!stored) return {};
  if (stored.initiator === "cardholder")
    return { unscheduledCardOnFileRequestor: "cardholderInitiated" as const, unscheduledCardOnFileSequenceIndicator: stored.sequence };
  const initial = stored.initialSchemeTransactionId ? { initialSchemeTransactionId: stored.initialSchemeTransactionId } : {};
  if (stored.type === "recurring")
    return { isRecurring: true, recurring: { recurringPaymentSequenceIndicator: "recurring" as const }, ...initial };
  return {
    unscheduledCardOnFileRequestor: "merchantInitiated" as const,
    unscheduledCardOnFileSequenceIndicator: "subsequent" as const,
    ...initial,
  };
}

/**
 * POST /v2/{merchantId}/payments. A payment captured later is a PRE_AUTHORIZATION ("can be reversed
 * and can be captured within 30 days. The capture amount can be lower than the authorized amount");
 * FINAL_AUTHORIZATION "can't be reversed and need[s] to be captured for the full amount within 7
 * days", which our void and partial capture cannot live with. Our own 3-D Secure result goes in
 * `threeDSecure.externalCardholderAuthenticationData`; without one (SKIP_3DS, a merchant-initiated
 * payment) `skipAuthentication: true` keeps the platform from authenticating on its own.
 */
export function toWorldlinePayment(input: WorldlinePaymentInput): WorldlineCreatePaymentRequest {
  const card = input.card;
  const securityCode = card.revealSecurityCode();
  const merchantInitiated = input.storedCredential?.initiator === "merchant";
  if (merchantInitiated && input.threeDs) throw new WorldlineInputError("a merchant-initiated payment carries no 3-D Secure result");
  if (merchantInitiated && securityCode) throw new WorldlineInputError("a merchant-initiated payment carries no security code");
  const customer = input.customer;
  const name =
    customer?.firstName || customer?.surname
      ? { ...(customer.firstName ? { firstName: customer.firstName } : {}), ...(customer.surname ? { surname: customer.surname } : {}) }
      : undefined;
  return {
    order: {
      amountOfMoney: { amount: toWorldlineAmount(input.amount, input.currency), currencyCode: input.currency },
      references: {
        merchantReference: input.reference,
        ...(input.descriptor?.trim() ? { descriptor: input.descriptor.trim().slice(0, 22) } : {}),
      },
      ...(input.customerIp || customer?.email || name
        ? {
            customer: {
              ...(input.customerIp ? { device: { ipAddress: input.customerIp } } : {}),
              ...(customer?.email ? { contactDetails: { emailAddress: customer.email } } : {}),
              ...(name ? { personalInformation: { name } } : {}),
            },
          }
        : {}),
    },
    cardPaymentMethodSpecificInput: {
      paymentProductId: worldlinePaymentProduct(card, input.paymentProductId),
      authorizationMode: input.capture === "now" ? "SALE" : "PRE_AUTHORIZATION",
      transactionChannel: "ECOMMERCE",
      card: {
        cardNumber: card.revealPan(),
        expiryDate: `${String(card.expMonth).padStart(2, "0")}${String(card.expYear % 100).padStart(2, "0")}`,
        ...(securityCode ? { cvv: securityCode } : {}),
        ...(card.holderName?.trim() ? { cardholderName: card.holderName.trim().slice(0, 51) } : {}),
      },
      threeDSecure: input.threeDs
        ? { externalCardholderAuthenticationData: externalAuthentication(input.threeDs) }
        : { skipAuthentication: true },
      ...storedCredentialFields(input.storedCredential),
    },
  };
}

/** POST …/capture. `isFinal: false` keeps later partial captures possible; capturing the whole rest is final anyway. */
export function toWorldlineCapture(input: { reference: string; amount: bigint; currency: string }): WorldlineCaptureRequest {
  const amount = toWorldlineAmount(input.amount, input.currency);
  if (amount === 0) throw new WorldlineInputError("a capture takes a positive amount");
  return { amount, isFinal: false, operationReferences: { merchantReference: input.reference } };
}

/** POST …/refund: the amount and currency, several partial refunds up to what was captured. */
export function toWorldlineRefund(input: { reference: string; amount: bigint; currency: string }): WorldlineRefundRequest {
  const amount = toWorldlineAmount(input.amount, input.currency);
  if (amount === 0) throw new WorldlineInputError("a refund takes a positive amount");
  return { amountOfMoney: { amount, currencyCode: input.currency }, operationReferences: { merchantReference: input.reference } };
}

/** POST …/cancel without an amount: the whole remaining authorization is reversed. */
export function toWorldlineCancel(input: { reference: string }): WorldlineCancelRequest {
  return { operationReferences: { merchantReference: input.reference } };
}

// ---- Answers ----

export type WorldlineOperationKind = "payment" | "capture" | "refund" | "cancel";

export type WorldlineResult =
  | {
      kind: "approved";
      /** The id follow-ups name: the payment's for a payment, the operation's for a capture or refund. */
      id: string;
      status: string;
      statusCode?: number;
      authorizationCode?: string;
      /** The scheme's transaction id a later merchant-initiated payment names. */
      schemeTransactionId?: string;
      par?: string;
      eci?: string;
      /** True when the money has moved (CAPTURED, REFUNDED); false while the platform still sends it on (…_REQUESTED). */
      final: boolean;
    }
  | { kind: "declined"; id?: string; status?: string; statusCode?: number; decline: ClassifiedDecline }
  /** Accepted, not yet decided (CREATED, AUTHORIZATION_REQUESTED) or the same idempotence key still in progress (409). */
  | { kind: "pending"; id?: string; status: string; statusCode?: number; reason: string }
  /** We cannot know whether the platform acted: look it up before anything else. */
  | { kind: "unknown"; httpStatus: number | null; reason: string }
  /** Refused before anything happened (a malformed request, credentials, an unknown payment). */
  | { kind: "refused"; httpStatus: number; code: string; errorId?: string; propertyName?: string; message: string };

/** Direct's statusCode values that leave the outcome unknown ("uncertain"): 52 authorization, 62 cancellation, 82 refund, 92 payment. */
const UNCERTAIN_STATUS_CODES = new Set([52, 62, 82, 92]);

const APPROVED: Record<WorldlineOperationKind, Record<string, boolean>> = {
  payment: { PENDING_CAPTURE: true, CAPTURED: true, CAPTURE_REQUESTED: false },
  capture: { CAPTURED: true, CAPTURE_REQUESTED: false },
  refund: { REFUNDED: true, REFUND_REQUESTED: false },
  cancel: { CANCELLED: true },
};
const REJECTED = new Set(["REJECTED", "REJECTED_CAPTURE"]);
const PENDING = new Set(["CREATED", "AUTHORIZATION_REQUESTED"]);

function errorCodes(errors: readonly WorldlineApiError[] | null | undefined): string[] {
  return (errors ?? []).flatMap((error) => {
    const code = error.errorCode ?? error.code;
    return code ? [code] : [];
  });
}

function fromStatus(
  kind: WorldlineOperationKind,
  answer: { id: string; status: string; statusOutput?: WorldlinePaymentResponse["statusOutput"] },
  payment?: WorldlinePaymentResponse,
): WorldlineResult {
  const statusCode = answer.statusOutput?.statusCode ?? undefined;
  if (statusCode !== undefined && UNCERTAIN_STATUS_CODES.has(statusCode))
    return {
      kind: "unknown",
      httpStatus: null,
      reason: `Worldline reports the outcome as uncertain (${answer.status}, statusCode ${statusCode})`,
    };
  // What every decided or pending answer reports as the platform gave it.
  const reported = { id: answer.id, status: answer.status, ...(statusCode !== undefined ? { statusCode } : {}) };
  const card = payment?.paymentOutput?.cardPaymentMethodSpecificOutput;
  const final = APPROVED[kind][answer.status];
  if (final !== undefined) {
    return {
      kind: "approved",
      ...reported,
      ...(card?.authorisationCode ? { authorizationCode: card.authorisationCode } : {}),
      ...(card?.initialSchemeTransactionId || card?.schemeReferenceData
        ? { schemeTransactionId: (card.initialSchemeTransactionId ?? card.schemeReferenceData)! }
        : {}),
      ...(card?.paymentAccountReference ? { par: card.paymentAccountReference } : {}),
      ...(card?.threeDSecureResults?.eci ? { eci: card.threeDSecureResults.eci } : {}),
      final,
    };
  }
  if (REJECTED.has(answer.status) || (kind === "payment" && answer.status === "CANCELLED")) {
    return {
      kind: "declined",
      ...reported,
      decline: classifyWorldlineDecline(errorCodes(answer.statusOutput?.errors), card?.reattemptInstructions?.indicator ?? undefined),
    };
  }
  if (PENDING.has(answer.status))
    return {
      kind: "pending",
      ...reported,
      reason: "accepted, not yet decided",
    };
  // REDIRECTED / PENDING_PAYMENT: the platform wants to authenticate the cardholder itself, which a
  // request with our own 3-D Secure result or skipAuthentication never asks for. Nothing is authorized.
  return {
    kind: "refused",
    httpStatus: 201,
    code: answer.status,
    message: `Worldline answered ${answer.status} (statusCode ${statusCode ?? "none"}), which this request cannot continue`,
  };
}

const SUCCESS_SCHEMAS = {
  payment: worldlineCreatePaymentResponse,
  capture: worldlineCaptureResponse,
  refund: worldlineRefundResponse,
  cancel: worldlineCancelResponse,
} as const;

/**
 * The neutral result of one answer. 2xx: by status. 4xx: 402 "Payment Rejected" (and any answer
 * carrying the rejected payment) is a decline, classed by its error codes; 409 with errorCode 1409 is
 * the same idempotence key still being processed ([SDK-JAVA] ExceptionFactory.isIdempotenceError);
 * other 4xx are refusals. 5xx: unknown, unless every error says `retriable` ("a technical error
 * happened and the same request can safely be sent again"). No answer at all is for the plumbing.
 */
export function fromWorldlineAnswer(kind: WorldlineOperationKind, httpStatus: number, body: unknown): WorldlineResult {
  if (httpStatus >= 200 && httpStatus < 300) {
    const parsed = SUCCESS_SCHEMAS[kind].safeParse(body);
    if (!parsed.success)
      return { kind: "unknown", httpStatus, reason: `Worldline answered ${httpStatus} with a body this connector cannot read` };
    const data = parsed.data as {
      id?: string;
      status?: string;
      statusOutput?: WorldlinePaymentResponse["statusOutput"];
      payment?: WorldlinePaymentResponse;
    };
    if (data.payment) return fromStatus(kind, data.payment, data.payment);
    return fromStatus(kind, { id: data.id!, status: data.status!, statusOutput: data.statusOutput });
  }
  const error = worldlineErrorResponse.safeParse(body);
  const errors = error.success ? (error.data.errors ?? []) : [];
  const first = errors[0];
  const codes = errorCodes(errors);
  if (error.success && error.data.paymentResult?.payment) {
    const payment = error.data.paymentResult.payment;
    const result = fromStatus(kind, payment, payment);
    if (result.kind === "declined" && result.decline.code === "" && codes.length > 0)
      return {
        ...result,
        decline: classifyWorldlineDecline(
          codes,
          payment.paymentOutput?.cardPaymentMethodSpecificOutput?.reattemptInstructions?.indicator ?? undefined,
        ),
      };
    return result;
  }
  if (error.success && error.data.refundResult)
    return {
      kind: "declined",
      id: error.data.refundResult.id,
      status: error.data.refundResult.status,
      decline: classifyWorldlineDecline(codes),
    };
  if (httpStatus === 402) return { kind: "declined", decline: classifyWorldlineDecline(codes) };
  if (httpStatus === 409 && codes.length === 1 && codes[0] === "1409")
    return {
      kind: "pending",
      status: "IDEMPOTENCE_IN_PROGRESS",
      reason: "the first request with this idempotence key is still being processed",
    };
  if (httpStatus >= 500) {
    if (errors.length > 0 && errors.every((entry) => entry.retriable === true))
      return refusal(httpStatus, first, error.success ? error.data.errorId : undefined);
    return { kind: "unknown", httpStatus, reason: `Worldline answered ${httpStatus}${first?.id ? ` (${first.id})` : ""}` };
  }
  if (httpStatus >= 400) return refusal(httpStatus, first, error.success ? error.data.errorId : undefined);
  return { kind: "unknown", httpStatus, reason: `Worldline answered ${httpStatus}` };
}

function refusal(httpStatus: number, first: WorldlineApiError | undefined, errorId: string | null | undefined): WorldlineResult {
  return {
    kind: "refused",
    httpStatus,
    code: first?.errorCode ?? first?.code ?? String(httpStatus),
    ...(errorId ? { errorId } : {}),
    ...(first?.propertyName ? { propertyName: first.propertyName } : {}),
    message:
      [first?.id, first?.message, first?.propertyName ? `(${first.propertyName})` : undefined].filter(Boolean).join(" ") ||
      `HTTP ${httpStatus}`,
  };
}

/**
 * Finds our operation on a payment after its answer was lost: GetPaymentDetails lists "the complete
 * list of operations executed on the payment", each with the `operationReferences.merchantReference`
 * we sent. Absent from a successful details answer means the platform never made it.
 */
export function findWorldlineOperation(
  details: unknown,
  reference: string,
): { found: WorldlineOperation | undefined } | { unreadable: true } {
  const parsed = worldlinePaymentDetailsResponse.safeParse(details);
  if (!parsed.success) return { unreadable: true };
  const found = parsed.data.operations.find(
    (operation) => (operation.operationReferences?.merchantReference ?? operation.references?.merchantReference) === reference,
  );
  return { found };
}

/** The result of one operation GetPaymentDetails listed (a capture, refund or cancel found again by our reference). */
export function fromWorldlineOperation(kind: Exclude<WorldlineOperationKind, "payment">, operation: WorldlineOperation): WorldlineResult {
  return fromStatus(kind, { id: operation.id, status: operation.status, statusOutput: operation.statusOutput ?? undefined });
}
