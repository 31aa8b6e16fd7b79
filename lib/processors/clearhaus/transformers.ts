// Pure mapping between our connector requests/results and the Clearhaus Gateway API: form-urlencoded
// requests with bracketed keys, HAL JSON answers with a 5-digit `status.code` (20000 the only approval).
import { z } from "zod";
import { RESPONSE_CODES, type AuthorizeRequest, type PayoutRequest, type ProcessorResult } from "../types";

/** Clearhaus `reference`: 1 to 30 ASCII characters. Our operation ids are 32, so the first 30 (still unique in practice). */
export function clearhausReference(operationId: string): string {
  return operationId.slice(0, 30);
}

function cardFields(card: AuthorizeRequest["card"], withSecurityCode: boolean): Record<string, string> {
  const fields: Record<string, string> = {
    "card[pan]": card.revealPan(),
    "card[expire_month]": String(card.expMonth).padStart(2, "0"),
    "card[expire_year]": String(card.expYear),
  };
  const securityCode = card.revealSecurityCode();
  if (withSecurityCode && securityCode) fields["card[csc]"] = securityCode;
  return fields;
}

export function toClearhausAuthorize(request: AuthorizeRequest): Record<string, string> {
  const cof = request.credentialOnFile;
  const merchantInitiated = cof?.initiator === "merchant";
  const fields: Record<string, string> = {
    amount: request.amount.toString(),
    currency: request.currency,
    reference: clearhausReference(request.operationId),
    // A subsequent-in-series authorization may not carry the CSC or 3-D Secure data.
    ...cardFields(request.card, !merchantInitiated),
  };
  if (request.customerIp) fields.ip = request.customerIp;
  if (request.textOnStatement) fields.text_on_statement = request.textOnStatement;
  if (cof?.initiator === "cardholder" && cof.storeCredential) {
    fields.credential_on_file = "store";
  } else if (cof?.initiator === "cardholder" && cof.usesStoredCredential) {
    fields.credential_on_file = "use";
  }
  if (cof?.initiator === "merchant") {
    fields.initiator = "merchant";
    fields.credential_on_file = "use";
    if (cof.previousProcessorReference) fields["series[previous][id]"] = cof.previousProcessorReference;
    else fields["series[type]"] = cof.paymentType === "scheduled" ? "recurring" : "unscheduled";
  }
  if (request.threeDs && !merchantInitiated) {
    fields["card[3dsecure][v2][raw][eci]"] = request.threeDs.eci;
    if (request.threeDs.authenticationValue) fields["card[3dsecure][v2][raw][av]"] = request.threeDs.authenticationValue;
  }
  return fields;
}

export function toClearhausAmount(amount: bigint, textOnStatement?: string): Record<string, string> {
  const fields: Record<string, string> = { amount: amount.toString() };
  if (textOnStatement) fields.text_on_statement = textOnStatement;
  return fields;
}

export function toClearhausCredit(request: PayoutRequest): Record<string, string> {
  const fields: Record<string, string> = {
    amount: request.amount.toString(),
    currency: request.currency,
    reference: clearhausReference(request.operationId),
    ...cardFields(request.card, false),
  };
  if (request.customerIp) fields.ip = request.customerIp;
  if (request.textOnStatement) fields.text_on_statement = request.textOnStatement;
  return fields;
}

export const clearhausTransaction = z.object({
  id: z.string(),
  status: z.object({ code: z.number().int(), message: z.string().optional() }),
  processed_at: z.string().optional(),
  amount: z.number().optional(),
  currency: z.string().optional(),
  threed_secure: z.boolean().optional(),
  /** Sandbox extension (not in Clearhaus' public docs): the issuer's approval code. */
  authorization_code: z.string().optional(),
  /** Sandbox extension: the scheme's Payment Account Reference. */
  payment_account_reference: z.string().optional(),
});
export type ClearhausTransaction = z.infer<typeof clearhausTransaction>;

/** Every status code Clearhaus documents. */
export const CLEARHAUS_STATUS_CODES = [
  20000, 40000, 40110, 40111, 40120, 40130, 40135, 40140, 40150, 40200, 40300, 40310, 40400, 40410, 40411, 40412, 40413, 40414, 40415,
  40416, 40420, 50000,
] as const;
export type ClearhausStatusCode = (typeof CLEARHAUS_STATUS_CODES)[number];

function isKnownStatus(code: number): code is ClearhausStatusCode {
  return (CLEARHAUS_STATUS_CODES as readonly number[]).includes(code);
}

type Mapped = Pick<ProcessorResult, "status" | "failure" | "responsecode">;

const declined = (responsecode: string): Mapped => ({ status: "declined", failure: "declined", responsecode });
const invalid = (responsecode: string): Mapped => ({ status: "failed", failure: "declined", responsecode });

/** Clearhaus status code to our status and an ISO 8583 code (the ISO equivalents are our reading). */
export function mapClearhausStatus(code: ClearhausStatusCode): Mapped {
  switch (code) {
    case 20000:
      return { status: "approved", responsecode: RESPONSE_CODES.approved };
    case 40000:
      return invalid("30");
    case 40110:
      return declined("14");
    case 40111:
      return invalid("57");
    case 40120:
      return declined("N7");
    case 40130:
      return invalid("30");
    case 40135:
      return declined("54");
    case 40140:
      return invalid("13");
    case 40150:
      return invalid("30");
    case 40200:
      return invalid("12");
    case 40300:
      return invalid("1A");
    case 40310:
      return declined("05");
    case 40400:
      return { status: "failed", failure: "retryable", responsecode: RESPONSE_CODES.unavailable };
    case 40410:
      return declined("05");
    case 40411:
      return declined("62");
    case 40412:
      return declined("41");
    case 40413:
      return declined("51");
    case 40414:
      return declined("59");
    case 40415:
      return declined("61");
    case 40416:
      return declined("1A");
    case 40420:
      return declined("R1");
    // "Status code 20000 is the only code for which the transaction is approved", yet a void is
    // allowed on a 50000 authorization [CH-status][CH-changes]: the acquirer may hold the funds, so
    // whether it acted is unknown (never sent elsewhere as if nothing happened).
    case 50000:
      return { status: "failed", failure: "indeterminate", responsecode: RESPONSE_CODES.systemError };
    default: {
      const unhandled: never = code;
      throw new Error(`unhandled Clearhaus status ${String(unhandled)}`);
    }
  }
}

export function fromClearhausTransaction(transaction: ClearhausTransaction, eci?: string): ProcessorResult {
  const code = transaction.status.code;
  const mapped: Mapped = isKnownStatus(code)
    ? mapClearhausStatus(code)
    : { status: "failed", failure: code >= 50000 ? "indeterminate" : "declined", responsecode: RESPONSE_CODES.systemError };
  return {
    ...mapped,
    processorReference: transaction.id || undefined,
    authorizationcode: mapped.status === "approved" ? transaction.authorization_code : undefined,
    eci: mapped.status === "failed" ? undefined : eci,
    par: mapped.status === "approved" ? transaction.payment_account_reference : undefined,
    acquirerCode: String(code),
    message: transaction.status.message,
  };
}

/** The Clearhaus status code for an ISO code the sandbox issuer declines with. */
export function clearhausCodeForIso(iso: string): ClearhausStatusCode {
  switch (iso) {
    case "51":
      return 40413;
    case "54":
      return 40135;
    case "14":
      return 40110;
    case "1A":
      return 40416;
    case "N7":
      return 40120;
    default:
      return 40410;
  }
}
