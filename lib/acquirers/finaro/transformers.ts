// Pure mapping between our connector requests/results and Finaro's (Credorax Source Payment API,
// "ePower") key=value fields, as the public clients send them (docs/acquirers.md, "Finaro"; [AM-CR]
// activemerchant credorax.rb, [MK-CR] the 2013 guide's client, [SDK-CR] the Java SDK's regexes).
// Operation codes `O`: 1 sale, 2 authorization, 3 capture, 4 authorization void, 5 refund, 35 credit
// (payout), 101 retrieval. A capture, void or refund names the operation it refers to by `g2` (its
// z1), `g3` (its z4) and `g4` (its a1: our operation id). Answers: z1 the transaction's id, z2 the
// result (0 approved), z3 text, z4 approval code, z6 the ISO 8583 code, z50 the network transaction id.
import { isIP } from "node:net";
import { z } from "zod";
import { schemeFromPan } from "../../cards/card-scheme";
import { NOT_SENT_CODES, RequestNotFormedError } from "../plumbing/request-not-formed";
import { finaroDeclineClass } from "./decline-classes";
import {
  RESPONSE_CODES,
  type AuthorizeRequest,
  type CaptureRequest,
  type CustomerData,
  type PayoutRequest,
  type ProcessorResult,
  type RefundRequest,
  type VoidRequest,
} from "../contract";

export const FINARO_OPERATION = { sale: "1", authorize: "2", capture: "3", void: "4", refund: "5", payout: "35", retrieve: "101" } as const;

/**
 * Z2 of the SANDBOX's retrieval (O=101) that found no request with that a1: a sandbox-only
 * convention (docs/acquirers.md). Finaro publishes no not-found code for O=101, and -7 is its
 * "no response from gateway" [MK-CR]: against the real gateway a retrieval's "not found" does not exist
 * for us, and every refused retrieval leaves the outcome unknown.
 */
export const FINARO_SANDBOX_NOT_FOUND = "-100";

/**
 * What goes out when the request has no value of its own, as ActiveMerchant does: `c3`
 * "unspecified@example.com" ([AM-CR] add_email) and `d1` "127.0.0.1" ([AM-CR] add_customer_data);
 * `c1` ([SDK-CR] `[a-zA-Z\s]{5,64}`, required for card operations) "Cardholder" where [AM-CR] sends
 * an empty name (docs/decisions/0107-speaking-clearhaus-and-finaro-exactly.md).
 */
export const FINARO_FALLBACKS = { email: "unspecified@example.com", ip: "127.0.0.1", name: "Cardholder" } as const;

/**
 * Past-transaction retrieval by the `a1` of the original request (Finaro's path after a time-out),
 * with the minimum fields the Credorax SDK sends for it, M O a1 d1 g4 ([SDK-CR] SpecialApplications
 * getTestRetrieval). No cardholder takes part in a retrieval: `d1` is the fallback address.
 */
export function toFinaroRetrieve(originalRequestId: string, merchantId: string, requestId: string): Record<string, string> {
  return { M: merchantId, O: FINARO_OPERATION.retrieve, a1: requestId, d1: FINARO_FALLBACKS.ip, g4: originalRequestId };
}

/** `b2`: 1 Visa, 2 Mastercard (9 Maestro, which we do not take). No code exists for other brands: none is sent ([AM-CR] CARD_TYPES). */
const CARD_TYPE: Partial<Record<string, string>> = { visa: "1", mastercard: "2" };

/**
 * Currencies whose minor unit Finaro's clients and ISO 4217 disagree on: [AM-CR] treats UGX, UYI
 * as two-decimal and knows no four-decimal currency. Their `a4` cannot be formed with certainty.
 */
const EXPONENT_UNVERIFIED = new Set(["UGX", "UYI", "CLF", "UYW"]);

/** `a4` `[0-9]{1,10}` ([SDK-CR]). */
function amountField(amount: bigint, currency: string): string {
  if (EXPONENT_UNVERIFIED.has(currency)) {
    throw new RequestNotFormedError(
      `finaro's minor unit for ${currency} is not published (ActiveMerchant and ISO 4217 differ)`,
      NOT_SENT_CODES.notPermitted,
    );
  }
  if (amount < 0n || amount > 9_999_999_999n)
    throw new RequestNotFormedError(`amount ${amount} does not fit finaro's a4 (10 digits)`, RESPONSE_CODES.invalidAmount);
  return amount.toString();
}

/** `c1` `[a-zA-Z\s]{5,64}`: letters and spaces of the card's or customer's name, accents dropped; else the fallback. */
export function finaroName(holderName: string | undefined, customer: CustomerData | undefined): string {
  const raw = holderName || [customer?.firstName, customer?.surname].filter(Boolean).join(" ");
  const letters = raw
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 64)
    .trim();
  return letters.length >= 5 ? letters : FINARO_FALLBACKS.name;
}

/** `c3`: the customer's email when it has one's shape, else the fallback. */
export function finaroEmail(email: string | undefined): string {
  return email && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) && email.length <= 128 ? email : FINARO_FALLBACKS.email;
}

/** `d1` IPv4 (the one source with a regex, [SDK-CR]); an IPv4-mapped IPv6 address is unwrapped, any other IPv6 or nothing gives the fallback. */
export function finaroIp(ip: string | undefined): string {
  if (!ip) return FINARO_FALLBACKS.ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  const candidate = mapped ?? ip;
  return isIP(candidate) === 4 ? candidate : FINARO_FALLBACKS.ip;
}

/** `i2`: "<DBA>*<description>", DBA at most 25 and description at most 13 characters ([MK-CR]); only with a text of the payment's own. */
export function finaroDescriptor(descriptor: string | undefined, text: string | undefined): string | undefined {
  const clean = (value: string | undefined, max: number) =>
    (value ?? "")
      .normalize("NFD")
      .replace(/[^\x20-\x7E]|\*/g, "")
      .trim()
      .slice(0, max)
      .trim();
  const dba = clean(descriptor, 25);
  const description = clean(text, 13);
  return dba && description ? `${dba}*${description}` : undefined;
}

function cardFields(card: AuthorizeRequest["card"], customer: CustomerData | undefined, withSecurityCode: boolean): Record<string, string> {
  const pan = card.revealPan();
  const scheme = schemeFromPan(pan);
  const fields: Record<string, string> = {
    b1: pan,
    b3: String(card.expMonth).padStart(2, "0"),
    b4: String(card.expYear % 100).padStart(2, "0"),
    c1: finaroName(card.holderName, customer),
  };
  const type = scheme ? CARD_TYPE[scheme] : undefined;
  if (type) fields.b2 = type;
  const securityCode = card.revealSecurityCode();
  if (withSecurityCode && securityCode) fields.b5 = securityCode;
  return fields;
}

/**
 * `a9`, as [AM-CR] add_stored_credential frames it: every cardholder-initiated payment is 9 (also
 * the one that stores the card: a one-off purchase is not "first recurring"); a merchant-initiated
 * scheduled payment is 2 (subsequent recurring: the first was the cardholder's), an unscheduled
 * one 8. An incremental authorization has no public code: not sent.
 */
function transactionType(request: AuthorizeRequest): string {
  const cof = request.credentialOnFile;
  if (!cof || cof.initiator === "cardholder") return "9";
  switch (cof.paymentType) {
    case "scheduled":
      return "2";
    case "unscheduled":
      return "8";
    case "incremental":
      throw new RequestNotFormedError("finaro publishes no code for an incremental authorization (a9)", NOT_SENT_CODES.notPermitted);
  }
}

export function toFinaroAuthorize(request: AuthorizeRequest, merchantId: string): Record<string, string> {
  const merchantInitiated = request.credentialOnFile?.initiator === "merchant";
  const fields: Record<string, string> = {
    M: merchantId,
    O: FINARO_OPERATION.authorize,
    a1: request.operationId,
    a4: amountField(request.amount, request.currency),
    a5: request.currency,
    h9: request.paymentId,
    a9: transactionType(request),
    // A merchant-initiated authorization carries no security code (it is never stored anyway).
    ...cardFields(request.card, request.customer, !merchantInitiated),
    c3: finaroEmail(request.customer?.email),
    d1: finaroIp(request.customerIp),
  };
  const descriptor = finaroDescriptor(request.descriptor, request.textOnStatement);
  if (descriptor) fields.i2 = descriptor;
  // g6: the network transaction id (z50) of the series' first payment ([AM-CR-R] L654-664).
  if (request.credentialOnFile?.initiator === "merchant" && request.credentialOnFile.previousSchemeTransactionId) {
    fields.g6 = request.credentialOnFile.previousSchemeTransactionId;
  }
  if (request.threeDs && !merchantInitiated) {
    // External 3-D Secure ([AM-CR] add_normalized_3d_secure_2_data): i8 = eci:cavv:none, the version, the DS transaction id.
    fields.i8 = `${request.threeDs.eci}:${request.threeDs.authenticationValue ?? "none"}:none`;
    fields["3ds_version"] = request.threeDs.version;
    if (request.threeDs.dsTransId) fields["3ds_dstrxid"] = request.threeDs.dsTransId;
  }
  return fields;
}

/** g2/g3/g4 of the referenced operation: its z1, its z4 and its a1 ([AM-CR] add_reference; "Parameter [g4] cannot be empty" without). */
function referenceFields(
  what: string,
  reference: string,
  approvalCode: string | undefined,
  requestId: string | undefined,
): Record<string, string> {
  if (!approvalCode) throw new RequestNotFormedError(`the ${what}'s approval code (g3) is not recorded`);
  if (!requestId) throw new RequestNotFormedError(`the ${what}'s request id (g4) is not known`);
  return { g2: reference, g3: approvalCode, g4: requestId };
}

export function toFinaroCapture(request: CaptureRequest, merchantId: string): Record<string, string> {
  return {
    M: merchantId,
    O: FINARO_OPERATION.capture,
    a1: request.operationId,
    a4: amountField(request.amount, request.currency),
    a5: request.currency,
    d1: finaroIp(request.customerIp),
    ...referenceFields("authorization", request.authorizationReference, request.authorizationCode, request.authorizationOperationId),
  };
}

/**
 * A refund names the capture it gives back ([AM-CR] refund with the capture's g2/g3/g4): one capture
 * per refund. A refund larger than what any single capture still holds is not sent (the merchant
 * refunds per capture; docs/decisions/0107-speaking-clearhaus-and-finaro-exactly.md).
 */
export function toFinaroRefund(request: RefundRequest, merchantId: string): Record<string, string> {
  const capture = request.capture;
  if (!capture) {
    throw new RequestNotFormedError(
      "a refund at finaro names one capture, and no single capture of this payment has that much left to refund: refund per capture",
      RESPONSE_CODES.invalidAmount,
    );
  }
  return {
    M: merchantId,
    O: FINARO_OPERATION.refund,
    a1: request.operationId,
    a4: amountField(request.amount, request.currency),
    a5: request.currency,
    d1: finaroIp(request.customerIp),
    ...referenceFields("capture", capture.processorReference, capture.authorizationCode ?? request.authorizationCode, capture.operationId),
  };
}

/** An authorization void carries no amount ([AM-CR] void; its recorded answer echoes the authorization's). */
export function toFinaroVoid(request: VoidRequest, merchantId: string): Record<string, string> {
  return {
    M: merchantId,
    O: FINARO_OPERATION.void,
    a1: request.operationId,
    d1: finaroIp(request.customerIp),
    ...referenceFields("authorization", request.authorizationReference, request.authorizationCode, request.authorizationOperationId),
  };
}

/** O=35 credit ([AM-CR] credit): card without CVV, the recipient's names (`j5`/`j13`) when given, c1/c3/d1 as for card operations. */
export function toFinaroPayout(request: PayoutRequest, merchantId: string): Record<string, string> {
  const fields: Record<string, string> = {
    M: merchantId,
    O: FINARO_OPERATION.payout,
    a1: request.operationId,
    a4: amountField(request.amount, request.currency),
    a5: request.currency,
    h9: request.paymentId,
    ...cardFields(request.card, request.customer, false),
    c3: finaroEmail(request.customer?.email),
    d1: finaroIp(request.customerIp),
  };
  if (request.customer?.firstName) fields.j5 = request.customer.firstName;
  if (request.customer?.surname) fields.j13 = request.customer.surname;
  const descriptor = finaroDescriptor(request.descriptor, request.textOnStatement);
  if (descriptor) fields.i2 = descriptor;
  return fields;
}

/** Finaro's url-encoded answer; keys compared case-insensitively (they come lower-case but M O T V K, [AM-CR] upper-cases them). */
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
      /** The network (scheme) transaction id of an approved authorization: a later MIT's g6. */
      Z50: z.string().optional(),
      /** Sandbox extension: the scheme's PAR (no public answer carries one). */
      PAR: z.string().optional(),
      K: z.string().optional(),
    }),
  );
export type FinaroResponse = z.infer<typeof finaroResponse>;

export function parseFinaroBody(text: string): FinaroResponse | undefined {
  const parsed = finaroResponse.safeParse(Object.fromEntries(new URLSearchParams(text)));
  return parsed.success ? parsed.data : undefined;
}

/** Positive Z2 values other than the partial approval: what the gate or the issuer said ([MK-CR] RESULT_CODES). */
function declineCode(z2: number): string {
  switch (z2) {
    case 2:
      return "59"; // high fraud score
    case 9:
      return "14"; // Luhn check failed
    default:
      return RESPONSE_CODES.doNotHonour;
  }
}

/** Negative Z2 values: the gateway refused before any issuer saw it ([MK-CR], [SDK-CR] ResultCode, [PL]). */
function gatewayErrorCode(z2: number): string {
  switch (z2) {
    case -1:
    case -2:
    case -3:
    case -8:
      return "03"; // the merchant's account or signature
    case -11:
      return "58"; // currency not supported for the merchant
    case -12:
      return "N7"; // security code missing
    case -13:
      return "1A"; // 3-D Secure data missing
    case -38:
      return RESPONSE_CODES.doNotHonour; // 3-D Secure authentication failed
    default:
      return "30"; // malformed (-9) and the rest
  }
}

/** Z2 10: "Transaction partially approved" ([MK-CR]): a hold for less than asked, which the connector voids. */
export const FINARO_PARTIAL_APPROVAL = 10;

export function fromFinaroResponse(response: FinaroResponse, eci?: string): ProcessorResult {
  const z2 = Number(response.Z2);
  const classified = finaroDeclineClass({ z2: response.Z2, z6: response.Z6 });
  const base = {
    processorReference: response.Z1,
    acquirerCode: `Z2=${response.Z2}${response.Z6 ? ` Z6=${response.Z6}` : ""}`,
    declineClass: classified.class,
    message: classified.documented
      ? response.Z3
      : [response.Z3, `z2 ${response.Z2}${response.Z6 ? ` z6 ${response.Z6}` : ""} is not in Finaro's code lists: declined-soft`]
          .filter(Boolean)
          .join("; "),
  };
  if (z2 === 0) {
    return {
      ...base,
      status: "approved",
      responsecode: RESPONSE_CODES.approved,
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
  // Not the amount asked for: declined as a whole (the authorization client voids the partial hold).
  if (z2 === FINARO_PARTIAL_APPROVAL) return { ...base, status: "declined", failure: "declined", responsecode: "10", eci };
  // 6 (challenge), 7 (redirect URL in z11), 100 (3-D enrolled): steps of Finaro-run 3-D Secure, which
  // this gateway does not ask for (no 3ds_initiate): nothing is charged, and nothing follows.
  if (z2 === 6 || z2 === 7 || z2 === 100) {
    return { ...base, status: "failed", failure: "declined", responsecode: RESPONSE_CODES.systemError };
  }
  if (z2 > 0) return { ...base, status: "declined", failure: "declined", responsecode: response.Z6 ?? declineCode(z2), eci };
  // The gateway refused before any issuer saw it (bad field, rule or state): the same request fails again.
  return { ...base, status: "failed", failure: "declined", responsecode: response.Z6 ?? gatewayErrorCode(z2) };
}
