// Pure mapping between our connector requests/results and Bambora North America Payments API v1
// (https://api.na.bambora.com/v1, Swagger "Bambora Payment APIs" 1.0.5 and its guides; every field
// and code here is listed with its source in docs/acquirers.md, "Bambora"). Amounts are decimal
// units of the account's one currency; an approval is HTTP 200 with `approved: "1"`; a decline or a
// refusal is an ErrorResponse `{code, category, message}` (402 "Business Rule Violation or Decline",
// 400 "Invalid request", ...), classed by its gateway code, else by its category.
import { z } from "zod";
import { currencyExponent } from "../../validation/currency";
import { RESPONSE_CODES, type AuthorizeRequest, type FailureClass, type ProcessorResult } from "../contract";
import { declined, isDocumented, refused, type MappedStatus } from "../plumbing/mapped-status";
import { bamboraDeclineClass } from "./decline-classes";

/** The currencies Bambora North America boards card accounts in (the processor's one currency: no currency field exists). */
export const BAMBORA_CURRENCIES = ["CAD", "USD"] as const;

export function isBamboraCurrency(currency: string): currency is (typeof BAMBORA_CURRENCIES)[number] {
  return (BAMBORA_CURRENCIES as readonly string[]).includes(currency);
}

/**
 * `order_number` ("A unique order number", at most 30 characters) of a payment, return or void: our
 * operation id (32 hex digits) cut to 30. Bambora refuses an order number it has processed (code
 * 788), so each request has its own; the report search finds a request again by it after a lost
 * answer. 120 bits of a random UUID: no two operations of an account share them in practice.
 */
export function bamboraOrderNumber(operationId: string): string {
  return operationId.slice(0, 30);
}

/**
 * Minor units to Bambora's decimal ("A decimal value in dollars. Uses up to two decimal places"),
 * with the currency's exponent. Exact for any amount below 2^53 minor units.
 */
export function toBamboraAmount(amount: bigint, currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent > 2) throw new Error(`bambora amounts have at most two decimals; ${currency} has ${exponent}`);
  return Number(amount) / 10 ** exponent;
}

/**
 * `card.name` is required (1 to 64 characters, Swagger `Card.required`), although the 3-D Secure
 * guide says the cardholder name is "not required by our APIs". The spec's hosted fields ask for no
 * name, so a payment without one says so in words instead of inventing a person
 * (docs/decisions/0106-bambora-on-the-north-america-payments-api.md).
 */
export const BAMBORA_NAME_NOT_COLLECTED = "Cardholder";

/** The credential-on-file framing of a cardholder payment (guides/credential_on_file). */
function cardOnFile(request: AuthorizeRequest): { type: string; series_id?: number } | undefined {
  const cof = request.credentialOnFile;
  if (cof?.initiator !== "cardholder") return undefined;
  // "any transaction that is processed for the purpose of verifying the cardholder's payment credentials
  // before storing it for later use by the merchant will have the 'first_unscheduled' type": the card is
  // stored for later payments whose schedule is not known when it is stored.
  if (cof.storeCredential) return { type: "first_unscheduled" };
  // subsequent_customer_initiated: "the series ID is required to be passed in the request message",
  // and a series id is "unique for each merchant account". A card stored at another acquirer (or
  // account) has no series here: the indicator is left out, and "a default indicator will be
  // assigned automatically" by Bambora, rather than sending a request it refuses (1136).
  if (cof.usesStoredCredential) {
    const series = cof.previousCredentialSeriesId ? Number(cof.previousCredentialSeriesId) : undefined;
    return series !== undefined && Number.isSafeInteger(series) ? { type: "subsequent_customer_initiated", series_id: series } : undefined;
  }
  return undefined;
}

/**
 * POST /v1/payments with `payment_method: "card"` and `card.complete: false` (a pre-authorization,
 * completed by POST /v1/payments/{id}/completions). 3-D Secure results of our own 3DS server go in
 * `card.3d_secure_passthrough` (guides/3D_secure_2_0.md, "Passthrough Method").
 */
export function toBamboraPayment(request: AuthorizeRequest) {
  const card = request.card;
  const securityCode = card.revealSecurityCode();
  const threeDs = request.threeDs;
  const cof = cardOnFile(request);
  return {
    order_number: bamboraOrderNumber(request.operationId),
    amount: toBamboraAmount(request.amount, request.currency),
    payment_method: "card",
    ...(request.customerIp ? { customer_ip: request.customerIp.slice(0, 30) } : {}),
    card: {
      name: (card.holderName?.trim() || BAMBORA_NAME_NOT_COLLECTED).slice(0, 64),
      number: card.revealPan(),
      expiry_month: String(card.expMonth).padStart(2, "0"),
      expiry_year: String(card.expYear % 100).padStart(2, "0"),
      ...(securityCode ? { cvd: securityCode } : {}),
      complete: false,
      ...(threeDs
        ? {
            "3d_secure_passthrough": {
              version: Number(threeDs.version.split(".")[0]) || 2,
              eci: Number(threeDs.eci),
              ...(threeDs.authenticationValue ? { cavv: threeDs.authenticationValue } : {}),
              ...(threeDs.dsTransId ? { ds_transaction_id: threeDs.dsTransId } : {}),
            },
          }
        : {}),
    },
    ...(cof ? { card_on_file: cof } : {}),
  };
}

/** POST /v1/payments/{id}/completions: the amount, at most the pre-authorized one (the SDKs' body). */
export function toBamboraCompletion(amount: bigint, currency: string) {
  return { amount: toBamboraAmount(amount, currency), payment_method: "card" };
}

/** POST /v1/payments/{id}/returns and /void: `Return` and `Void` {amount (required), order_number}. */
export function toBamboraAdjustment(amount: bigint, currency: string, operationId: string) {
  return { amount: toBamboraAmount(amount, currency), order_number: bamboraOrderNumber(operationId) };
}

const idText = z.union([z.string(), z.number()]).transform(String);

/** PaymentResponse (HTTP 200): the fields we read. */
export const bamboraPaymentResponse = z.object({
  id: idText,
  approved: idText,
  message_id: idText,
  message: z.string().optional(),
  auth_code: z.string().optional(),
  order_number: z.string().optional(),
  type: z.string().optional(),
  card: z.object({ eci: z.number().optional() }).optional(),
  card_on_file: z.object({ type: z.string().optional(), series_id: idText.optional() }).optional(),
});
export type BamboraPaymentResponse = z.infer<typeof bamboraPaymentResponse>;

/** ErrorResponse: `code` is the gateway or bank message id, `category` 1 processed, 2 business rule, 3 input, 4 technical. */
export const bamboraErrorResponse = z.object({
  code: z.number().int(),
  category: z.number().int(),
  message: z.string().optional(),
  details: z.array(z.object({ field: z.string().optional(), message: z.string().optional() })).optional(),
});
export type BamboraErrorResponse = z.infer<typeof bamboraErrorResponse>;

/**
 * The gateway codes a connector must class (includes/na/bank_response_codes/_gateway.md; the
 * emulator's 1 and 7). Bank codes of the acquiring processors (TD, Global, Chase ...) are not
 * listed: they arrive as category 1 (processed by the bank) and are declines.
 */
export const BAMBORA_GATEWAY_CODES = [
  1, 7, 14, 16, 26, 49, 50, 51, 52, 53, 54, 55, 56, 59, 60, 190, 191, 192, 193, 194, 195, 196, 197, 198, 200, 201, 202, 203, 204, 205, 206,
  207, 208, 209, 210, 211, 212, 297, 298, 299, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, 312, 313, 314, 559, 560, 760,
  788, 821, 822, 935, 938, 1134, 1136, 1137,
] as const;
export type BamboraGatewayCode = (typeof BAMBORA_GATEWAY_CODES)[number];

const failure = (failureClass: Exclude<FailureClass, "declined">, responsecode: string): MappedStatus => ({
  status: "failed",
  failure: failureClass,
  responsecode,
});

/** A gateway code to our status and an ISO 8583 code (the ISO equivalents are our reading). */
export function mapBamboraGatewayCode(code: BamboraGatewayCode): MappedStatus {
  switch (code) {
    case 1:
      return { status: "approved", responsecode: RESPONSE_CODES.approved };
    case 7:
    case 311: // 3D Secure Failed
    case 313: // DECLINE, over sales limit
    case 822: // AVS mismatch, transaction reversed
      return declined(RESPONSE_CODES.doNotHonour);
    case 51: // DECLINE, restricted card or IP
      return declined("62");
    case 52:
      return declined("14");
    case 14:
    case 26:
      return declined(RESPONSE_CODES.expiredCard);
    case 821: // CVD mismatch, transaction reversed
      return declined("N7");
    case 938: // Authentication is required to process this transaction
      return declined(RESPONSE_CODES.scaRequired);
    // The order number or the transaction was processed already: an earlier request of ours reached
    // Bambora, whose answer we did not see. Never a decline: look it up by its order number.
    case 16:
    case 788:
    // "Pre-Authorization already completed": we complete a pre-authorization once (a second capture is
    // refused before sending), so this answers a repeat of our own completion (a retry or a duplicate
    // on the wire) whose first answer we did not see. Look it up; never call it refused.
    case 203:
      return failure("indeterminate", "94");
    // The processor's answer never came back, or the transaction is still in process: the card may be charged.
    case 53:
    case 54:
    case 55:
    case 56:
    case 190:
    case 560:
      return failure("indeterminate", code === 55 ? RESPONSE_CODES.timeout : RESPONSE_CODES.systemError);
    // "Service Unavailable - Please try again later", "Adjustment failed, please wait one minute and retry": not processed.
    case 211:
    case 212:
    case 297:
    case 298:
    case 299:
    case 300:
    case 301:
    case 302:
    case 303:
    case 304:
    case 305:
    case 306:
    case 307:
    case 308:
    case 309:
    case 310:
    case 935:
      return failure("retryable", RESPONSE_CODES.unavailable);
    case 191:
    case 193:
    case 194:
    case 195:
    case 197:
    case 208:
      return refused(RESPONSE_CODES.invalidAmount);
    case 192:
    case 196:
    case 198:
    case 200:
    case 201:
    case 204:
    case 205:
    case 1134:
      return refused(RESPONSE_CODES.invalidTransaction);
    case 559:
      return refused("25");
    case 59:
    case 60:
    case 206:
    case 207:
    case 209:
    case 210:
      return refused("03");
    case 312:
    case 1137:
      return refused("58");
    case 49:
    case 50:
    case 202:
    case 314:
    case 760:
    case 1136:
      return refused("30");
    default: {
      const unhandled: never = code;
      throw new Error(`unhandled Bambora gateway code ${String(unhandled)}`);
    }
  }
}

/** A code we do not list, by its category ([BNA-JAVA] BeanstreamApiException). */
function mapCategory(category: number): MappedStatus {
  switch (category) {
    // "The transaction was successfully processed": it reached the bank, which said no.
    case 1:
      return declined(RESPONSE_CODES.doNotHonour);
    case 2:
      return refused(RESPONSE_CODES.invalidTransaction);
    case 3:
      return refused("30");
    // "Transaction failed due to technical problem": whether it was processed is unknown.
    default:
      return failure("indeterminate", RESPONSE_CODES.systemError);
  }
}

/**
 * The routing's class of an answer with this message id: the gateway table's, else (an id the table
 * does not list) declined-soft as the message says, or technical when the answer's category says
 * nothing was decided (a technical failure, an unknown outcome).
 */
function classified(code: number | string | undefined, mapped: MappedStatus, message: string | undefined): Pick<ProcessorResult, "declineClass" | "message"> {
  if (mapped.status === "approved") return { declineClass: "approved", message };
  const { class: declineClass, documented } = bamboraDeclineClass(code);
  // An approval's id on an answer that did not approve (an ErrorResponse's code 1) is no approval.
  if (documented && declineClass !== "approved") return { declineClass, message };
  if (mapped.failure === "indeterminate" || mapped.failure === "retryable") return { declineClass: "technical", message };
  return {
    declineClass,
    message: [message, `message id ${code ?? "(none)"} is not in Bambora's gateway table: declined-soft`].filter(Boolean).join("; "),
  };
}

/** An approval's 200 answer (or a 200 that is not approved, classed by its message id). */
export function fromBamboraPayment(response: BamboraPaymentResponse, eci?: string): ProcessorResult {
  const code = Number(response.message_id);
  const approved = response.approved === "1";
  const mapped: MappedStatus = approved
    ? { status: "approved", responsecode: RESPONSE_CODES.approved }
    : isDocumented(BAMBORA_GATEWAY_CODES, code) && code !== 1
      ? mapBamboraGatewayCode(code)
      : declined(RESPONSE_CODES.doNotHonour);
  const seriesId = response.card_on_file?.series_id;
  return {
    ...mapped,
    processorReference: response.id,
    authorizationcode: approved && response.auth_code ? response.auth_code : undefined,
    eci: mapped.status === "failed" ? undefined : eci,
    acquirerCode: response.message_id,
    ...classified(response.message_id, mapped, response.message),
    ...(approved && seriesId ? { credentialSeriesId: seriesId } : {}),
  };
}

/** An ErrorResponse (HTTP 4xx): a decline reached the bank (category 1); anything else was refused or failed. */
export function fromBamboraError(error: BamboraErrorResponse, eci?: string): ProcessorResult {
  const mapped = isDocumented(BAMBORA_GATEWAY_CODES, error.code) && error.code !== 1 ? mapBamboraGatewayCode(error.code) : mapCategory(error.category);
  const detail = error.details
    ?.map((item) => [item.field, item.message].filter(Boolean).join(": "))
    .filter(Boolean)
    .join("; ");
  return {
    ...mapped,
    eci: mapped.status === "declined" ? eci : undefined,
    acquirerCode: String(error.code),
    ...classified(error.code, mapped, [error.message, detail].filter(Boolean).join(" (") + (detail ? ")" : "")),
  };
}

/** Answers of the report search (POST /v1/reports, name "Search"): the fields we read of each record. */
export const bamboraSearchResult = z.object({
  records: z.array(
    z.object({
      trn_id: idText,
      trn_type: z.string(),
      trn_order_number: z.string().optional(),
      trn_response: z.union([z.number(), z.string()]).optional(),
      message_id: z.union([z.number(), z.string()]).optional(),
      message_text: z.string().optional(),
      trn_approval_code: z.string().optional(),
      trn_amount: z.union([z.number(), z.string()]).optional(),
      trn_voided: z.union([z.number(), z.string()]).optional(),
    }),
  ),
});
export type BamboraSearchRecord = z.infer<typeof bamboraSearchResult>["records"][number];

/** GET /v1/payments/{id}: a Transaction's adjustments (swagger `Transaction.adjusted_by[{id, type, approval, message, amount, created, url}]`). */
export const bamboraTransaction = z.object({
  id: idText,
  adjusted_by: z
    .array(
      z.object({
        id: idText,
        type: z.string(),
        approval: z.union([z.number(), z.string()]).optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});
export type BamboraAdjustment = NonNullable<z.infer<typeof bamboraTransaction>["adjusted_by"]>[number];

/** A pre-authorization's completion found among its adjustments (type PAC), as the answer to our capture. */
export function fromBamboraCompletion(adjustment: BamboraAdjustment): ProcessorResult {
  const approved = String(adjustment.approval) === "1";
  return {
    ...(approved ? { status: "approved" as const, responsecode: RESPONSE_CODES.approved } : declined(RESPONSE_CODES.doNotHonour)),
    processorReference: adjustment.id,
    message: adjustment.message,
  };
}

/** Which transaction types answer a request of ours of this kind (includes/na/response_codes/_transaction_type.md). */
export const BAMBORA_TYPES_BY_KIND = {
  authorize: ["PA", "P"],
  refund: ["R"],
  void: ["VP", "VR"],
} as const;

/**
 * The report search body that finds `orderNumber` within a date window (criteria field 5,
 * OrderNumber; operator "=" URL-encoded), written as the docs' examples write it (rows and field as
 * strings). A pre-authorization and its completion share the order number: ten rows hold both.
 */
export function toBamboraOrderSearch(orderNumber: string, window: { start: string; end: string }) {
  return {
    name: "Search",
    start_date: window.start,
    end_date: window.end,
    start_row: "1",
    end_row: "10",
    criteria: [{ field: "5", operator: "%3D", value: orderNumber }],
  };
}

/** A found record as the answer to our request: approved (`trn_response` 1) or declined with its message id. */
export function fromBamboraSearchRecord(record: BamboraSearchRecord): ProcessorResult {
  const approved = String(record.trn_response) === "1";
  const code = Number(record.message_id);
  const mapped: MappedStatus = approved
    ? { status: "approved", responsecode: RESPONSE_CODES.approved }
    : isDocumented(BAMBORA_GATEWAY_CODES, code) && code !== 1
      ? mapBamboraGatewayCode(code)
      : declined(RESPONSE_CODES.doNotHonour);
  return {
    ...mapped,
    processorReference: record.trn_id,
    authorizationcode: approved && record.trn_approval_code ? record.trn_approval_code : undefined,
    acquirerCode: record.message_id === undefined ? undefined : String(record.message_id),
    ...classified(record.message_id, mapped, record.message_text),
  };
}
