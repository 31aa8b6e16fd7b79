// Pure mapping between our connector requests/results and Finaro's (Credorax Source Payment API)
// key=value fields. Operation codes `O`: 1 sale, 2 authorization, 3 capture, 4 authorization void,
// 5 refund, 35 credit (payout). Response: Z1 transaction id, Z2 result (0 success, positive = issuer
// decline, negative = gateway error), Z3 text, Z4 authorization code, Z6 ISO 8583 code.
import { z } from "zod";
import { schemeFromPan } from "../../cards/card-scheme";
import {
  RESPONSE_CODES,
  type AuthorizeRequest,
  type CaptureRequest,
  type PayoutRequest,
  type ProcessorResult,
  type RefundRequest,
  type VoidRequest,
} from "../types";

export const FINARO_OPERATION = { sale: "1", authorize: "2", capture: "3", void: "4", refund: "5", payout: "35", retrieve: "101" } as const;

/**
 * Z2 of the SANDBOX's retrieval (O=101) that found no request with that a1: a sandbox-only
 * convention (docs/acquirers.md). Finaro publishes no not-found code for O=101, and -7 is its
 * "no response from gateway" [MK-CR]: against the real gateway a retrieval's "not found" does not exist
 * for us, and every refused retrieval leaves the outcome unknown.
 */
export const FINARO_SANDBOX_NOT_FOUND = "-100";

/** Past-transaction retrieval by the `a1` of the original request (Finaro's path after a time-out). */
export function toFinaroRetrieve(originalRequestId: string, merchantId: string, requestId: string): Record<string, string> {
  return { M: merchantId, O: FINARO_OPERATION.retrieve, a1: requestId, g4: originalRequestId };
}

const CARD_TYPE = { visa: "1", mastercard: "2", amex: "3" } as const;

function cardFields(card: AuthorizeRequest["card"], withSecurityCode: boolean): Record<string, string> {
  const pan = card.revealPan();
  const scheme = schemeFromPan(pan);
  const fields: Record<string, string> = {
    b1: pan,
    b3: String(card.expMonth).padStart(2, "0"),
    b4: String(card.expYear % 100).padStart(2, "0"),
  };
  if (scheme) fields.b2 = CARD_TYPE[scheme];
  const securityCode = card.revealSecurityCode();
  if (withSecurityCode && securityCode) fields.b5 = securityCode;
  if (card.holderName) fields.c1 = card.holderName;
  return fields;
}

/** `a9`: 9 cardholder-initiated, 1 first of a stored-credential series, 2 subsequent scheduled, 8 unscheduled/incremental MIT. */
function credentialOnFileFlag(request: AuthorizeRequest): string {
  const cof = request.credentialOnFile;
  if (!cof) return "9";
  if (cof.initiator === "cardholder") return cof.storeCredential ? "1" : "9";
  switch (cof.paymentType) {
    case "scheduled":
      return "2";
    case "unscheduled":
    case "incremental":
      return "8";
  }
}

export function toFinaroAuthorize(request: AuthorizeRequest, merchantId: string): Record<string, string> {
  const merchantInitiated = request.credentialOnFile?.initiator === "merchant";
  const fields: Record<string, string> = {
    M: merchantId,
    O: FINARO_OPERATION.authorize,
    a1: request.operationId,
    a4: request.amount.toString(),
    a5: request.currency,
    h9: request.paymentId,
    a9: credentialOnFileFlag(request),
    // A merchant-initiated authorization carries no security code (it is never stored anyway).
    ...cardFields(request.card, !merchantInitiated),
  };
  if (request.textOnStatement) fields.i2 = request.textOnStatement;
  if (request.customerIp) fields.d1 = request.customerIp;
  if (request.credentialOnFile?.initiator === "merchant" && request.credentialOnFile.previousSchemeTransactionId) {
    fields.g6 = request.credentialOnFile.previousSchemeTransactionId;
  }
  if (request.threeDs && !merchantInitiated) {
    fields.i8 = `${request.threeDs.eci}:${request.threeDs.authenticationValue ?? "none"}:none`;
    fields["3ds_version"] = request.threeDs.version;
    if (request.threeDs.dsTransId) fields["3ds_dstrxid"] = request.threeDs.dsTransId;
  }
  return fields;
}

function referenceFields(reference: string, authorizationCode: string | undefined): Record<string, string> {
  const fields: Record<string, string> = { g2: reference };
  if (authorizationCode) fields.g3 = authorizationCode;
  return fields;
}

export function toFinaroCapture(request: CaptureRequest, merchantId: string): Record<string, string> {
  return {
    M: merchantId,
    O: FINARO_OPERATION.capture,
    a1: request.operationId,
    a4: request.amount.toString(),
    a5: request.currency,
    ...referenceFields(request.authorizationReference, request.authorizationCode),
  };
}

export function toFinaroRefund(request: RefundRequest, merchantId: string): Record<string, string> {
  return {
    M: merchantId,
    O: FINARO_OPERATION.refund,
    a1: request.operationId,
    a4: request.amount.toString(),
    a5: request.currency,
    ...referenceFields(request.captureReference ?? request.authorizationReference, request.authorizationCode),
  };
}

export function toFinaroVoid(request: VoidRequest, merchantId: string): Record<string, string> {
  return {
    M: merchantId,
    O: FINARO_OPERATION.void,
    a1: request.operationId,
    a4: request.amount.toString(),
    a5: request.currency,
    ...referenceFields(request.authorizationReference, request.authorizationCode),
  };
}

export function toFinaroPayout(request: PayoutRequest, merchantId: string): Record<string, string> {
  const fields: Record<string, string> = {
    M: merchantId,
    O: FINARO_OPERATION.payout,
    a1: request.operationId,
    a4: request.amount.toString(),
    a5: request.currency,
    h9: request.paymentId,
    ...cardFields(request.card, false),
  };
  if (request.textOnStatement) fields.i2 = request.textOnStatement;
  return fields;
}

/** Finaro's url-encoded answer; keys compared case-insensitively (ActiveMerchant upper-cases them). */
export const finaroResponse = z
  .record(z.string(), z.string())
  .transform((raw) => Object.fromEntries(Object.entries(raw).map(([key, value]) => [key.toUpperCase(), value])))
  .pipe(
    z.object({
      Z1: z.string().optional(),
      Z2: z.string().regex(/^-?\d+$/),
      Z3: z.string().optional(),
      Z4: z.string().optional(),
      Z6: z.string().optional(),
      /** Scheme transaction id (network transaction id) of an approved authorization. */
      Z50: z.string().optional(),
      PAR: z.string().optional(),
    }),
  );
export type FinaroResponse = z.infer<typeof finaroResponse>;

export function parseFinaroBody(text: string): FinaroResponse | undefined {
  const parsed = finaroResponse.safeParse(Object.fromEntries(new URLSearchParams(text)));
  return parsed.success ? parsed.data : undefined;
}

/** Negative Z2 values: the gateway refused before the issuer saw it. */
function gatewayErrorCode(z2: number): string {
  switch (z2) {
    case -9:
      return RESPONSE_CODES.systemError;
    case -38:
      return "05";
    default:
      return z2 <= -1 && z2 >= -99 ? "30" : RESPONSE_CODES.systemError;
  }
}

export function fromFinaroResponse(response: FinaroResponse, eci?: string): ProcessorResult {
  const z2 = Number(response.Z2);
  const base = {
    processorReference: response.Z1,
    acquirerCode: `Z2=${response.Z2}${response.Z6 ? ` Z6=${response.Z6}` : ""}`,
    message: response.Z3,
  };
  if (z2 === 0) {
    return {
      ...base,
      status: "approved",
      responsecode: response.Z6 ?? RESPONSE_CODES.approved,
      authorizationcode: response.Z4,
      eci,
      par: response.PAR,
      scheme: response.Z50 ? { schemeTransactionId: response.Z50 } : undefined,
    };
  }
  // Z2 4 "interchange timeout" and -7 "no response from gateway" [MK-CR]: the issuer's answer never
  // came back, so whether the card was charged is unknown: never a decline (STYLE principle 5).
  if (z2 === 4 || z2 === -7) {
    return { ...base, status: "failed", failure: "indeterminate", responsecode: RESPONSE_CODES.timeout };
  }
  if (z2 > 0) {
    return { ...base, status: "declined", failure: "declined", responsecode: response.Z6 ?? String(z2).padStart(2, "0"), eci };
  }
  // The gateway refused before any issuer saw it (bad field, rule or state): the same request fails again.
  return { ...base, status: "failed", failure: "declined", responsecode: response.Z6 ?? gatewayErrorCode(z2) };
}
