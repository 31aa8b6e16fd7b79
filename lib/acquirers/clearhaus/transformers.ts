// Pure mapping between our connector requests/results and the Clearhaus Gateway API: form-urlencoded
// requests with bracketed keys, HAL JSON answers with a 5-digit `status.code` (20000 the only
// approval). Every field traces to the docs (docs/acquirers.md, "Clearhaus"; [CH] is
// clearhaus/gateway-api-docs@63da699, website/content/gateway/). What Clearhaus would refuse is not
// sent: RequestNotFormedError names why.
import { isIP } from "node:net";
import { z } from "zod";
import { schemeFromPan } from "../../cards/card-scheme";
import { NOT_SENT_CODES, RequestNotFormedError } from "../plumbing/request-not-formed";
import { declined, isDocumented, refused, type MappedStatus } from "../plumbing/mapped-status";
import { clearhausDeclineClass } from "./decline-classes";
import {
  RESPONSE_CODES,
  type AuthorizeRequest,
  type CaptureRequest,
  type CustomerData,
  type PayoutRequest,
  type ProcessorResult,
  type RefundRequest,
} from "../contract";

/** Clearhaus `reference`: 1 to 30 ASCII characters. Our operation ids are 32, so the first 30 (still unique in practice). */
export function clearhausReference(operationId: string): string {
  return operationId.slice(0, 30);
}

/** [CH] currencies.md: codes a scheme does not recognize, and BGN (withdrawn at the end of 2025). */
const NOT_RECOGNIZED: Record<"visa" | "mastercard", readonly string[]> = { visa: ["ANG", "CNH", "BGN"], mastercard: ["XCG", "LYD", "BGN"] };

/** Amounts are `[0-9]{,9}` minor units in Clearhaus' exponents, which equal ISO 4217's for every currency it lists. */
const MAX_AMOUNT = 999_999_999n;

type CardArgument = AuthorizeRequest["card"];

/** Visa and Mastercard only ([AM-CH] supported_cardtypes; others answer 40111): the scheme, or refused. */
function clearhausScheme(card: CardArgument, currency: string): "visa" | "mastercard" {
  const scheme = schemeFromPan(card.revealPan());
  if (scheme !== "visa" && scheme !== "mastercard") {
    throw new RequestNotFormedError(
      `clearhaus takes Visa and Mastercard cards only, not ${scheme ?? "this card"}`,
      NOT_SENT_CODES.notPermitted,
    );
  }
  if (NOT_RECOGNIZED[scheme].includes(currency)) {
    throw new RequestNotFormedError(`clearhaus does not take ${currency} on ${scheme} cards (currencies.md)`, NOT_SENT_CODES.notPermitted);
  }
  return scheme;
}

function amountField(amount: bigint, { zero }: { zero: boolean }): string {
  if (amount < (zero ? 0n : 1n) || amount > MAX_AMOUNT) {
    throw new RequestNotFormedError(
      `amount ${amount} is outside clearhaus' range (${zero ? 0 : 1} to ${MAX_AMOUNT} minor units)`,
      RESPONSE_CODES.invalidAmount,
    );
  }
  return amount.toString();
}

/** `card[...]`: pan, MM, YYYY, and `card[csc]` `[0-9]{3}` when it goes out ([CH] authorizations_methods/card.md). */
function cardFields(card: CardArgument, withSecurityCode: boolean): Record<string, string> {
  const fields: Record<string, string> = {
    "card[pan]": card.revealPan(),
    "card[expire_month]": String(card.expMonth).padStart(2, "0"),
    "card[expire_year]": String(card.expYear),
  };
  const securityCode = card.revealSecurityCode();
  if (withSecurityCode && securityCode) fields["card[csc]"] = securityCode;
  return fields;
}

/** ASCII letters, digits and spaces only, accents dropped ("Zoë Ångström" → "Zoe Angstrom"). */
function asciiWords(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * `text_on_statement` `[\x20-\x7E]{2,22}`, not all digits, not one repeated character, not a
 * sequence ([CH] authorizations.md). Cut to 22; a text that still breaks the rules is left out, and
 * Clearhaus prints the account's descriptor instead (its documented default).
 */
export function clearhausTextOnStatement(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const cut = text
    .normalize("NFD")
    .replace(/[^\x20-\x7E]/g, "")
    .trim()
    .slice(0, 22)
    .trim();
  if (cut.length < 2 || /^\d+$/.test(cut) || new Set(cut).size === 1) return undefined;
  const codes = [...cut].map((character) => character.charCodeAt(0));
  if (codes.every((code, index) => index === 0 || code === codes[index - 1]! + 1)) return undefined;
  return cut;
}

/** `ip` `[0-9.a-fA-F:]{3,45}`, a valid IPv4 or IPv6 address; anything else is left out (it is optional). */
function ipField(ip: string | undefined): Record<string, string> {
  return ip && isIP(ip) !== 0 ? { ip } : {};
}

/** `card[name]` `[A-Za-z0-9 ]{1,30}` ([CH] credits.md): the recipient's names, or the card's holder name. */
export function clearhausCardName(card: CardArgument, customer: CustomerData | undefined): string | undefined {
  const name = asciiWords([customer?.firstName, customer?.surname].filter(Boolean).join(" ") || card.holderName || "");
  return name ? name.slice(0, 30).trim() : undefined;
}

const SERIES_GONE_ELSEWHERE =
  "clearhaus continues a series only from an approved authorization of it on the same account (series[previous][id]); a series started elsewhere needs Clearhaus' approval for series[previous][visa|mastercard], which this gateway does not use";

/**
 * `POST /authorizations` ([CH] authorizations.md, card.md, 3dsecure_v2.md, series.md).
 * - A cardholder payment that stores the card starts a series: `series[type]=unscheduled` with the
 *   CSC and 3-D Secure (credential_on_file defaults to store): the merchant's later MITs are not
 *   known yet, and "the type of a series cannot change".
 * - A cardholder payment with a stored card: `credential_on_file=use`.
 * - A merchant-initiated payment: `series[previous][id]` = the latest approved authorization of the
 *   series on this account, no CSC, no 3-D Secure (initiator and credential_on_file default).
 * - 3-D Secure as complete raw data: trans_status, message_version, message_type, eci, av, ds_trans_id.
 * `signed`: the request carries a partner's Signature, which makes the CSC optional.
 */
export function toClearhausAuthorize(request: AuthorizeRequest, { signed = false }: { signed?: boolean } = {}): Record<string, string> {
  const scheme = clearhausScheme(request.card, request.currency);
  const cof = request.credentialOnFile;
  const merchantInitiated = cof?.initiator === "merchant";
  const fields: Record<string, string> = {
    amount: amountField(request.amount, { zero: true }),
    currency: request.currency,
    reference: clearhausReference(request.operationId),
    // A subsequent-in-series authorization may not carry the CSC or 3-D Secure data.
    ...cardFields(request.card, !merchantInitiated),
    ...ipField(request.customerIp),
  };
  const text = clearhausTextOnStatement(request.textOnStatement ?? request.descriptor);
  if (text) fields.text_on_statement = text;
  if (cof?.initiator === "merchant") {
    if (cof.paymentType === "incremental") {
      throw new RequestNotFormedError(
        "clearhaus has no incremental authorization (a series knows recurring and unscheduled payments only)",
        NOT_SENT_CODES.notPermitted,
      );
    }
    if (!cof.previousProcessorReference) throw new RequestNotFormedError(SERIES_GONE_ELSEWHERE, NOT_SENT_CODES.notPermitted);
    fields["series[previous][id]"] = cof.previousProcessorReference;
    return fields;
  }
  if (!fields["card[csc]"] && !signed) {
    throw new RequestNotFormedError(
      "clearhaus needs the card's security code on a cardholder payment unless a trusted partner signs the request",
    );
  }
  if (cof?.initiator === "cardholder" && cof.storeCredential) fields["series[type]"] = "unscheduled";
  else if (cof?.initiator === "cardholder" && cof.usesStoredCredential) fields.credential_on_file = "use";
  if (request.threeDs) Object.assign(fields, threeDsFields(request.threeDs, scheme));
  return fields;
}

/**
 * The 3-D Secure result ([CH] 3dsecure_v2.md): the whole ARes or RReq as `card[3dsecure][v2][ares]` or
 * `[rreq]` (JSON text, the docs' example), the method Clearhaus documents first; the raw fields only
 * when the message is not at hand (a result from before it was stored).
 */
function threeDsFields(threeDs: NonNullable<AuthorizeRequest["threeDs"]>, scheme: "visa" | "mastercard"): Record<string, string> {
  if (!threeDs.authenticationValue) throw new RequestNotFormedError("the 3-D Secure result has no authentication value (av) for clearhaus");
  if (scheme === "mastercard" && !threeDs.dsTransId) {
    throw new RequestNotFormedError("the 3-D Secure result has no ds_trans_id, which clearhaus requires for Mastercard");
  }
  if (threeDs.message) return { [`card[3dsecure][v2][${threeDs.messageType === "RReq" ? "rreq" : "ares"}]`]: threeDs.message };
  const raw = "card[3dsecure][v2][raw]";
  return {
    [`${raw}[trans_status]`]: threeDs.transStatus,
    [`${raw}[message_version]`]: threeDs.version,
    [`${raw}[message_type]`]: threeDs.messageType,
    [`${raw}[eci]`]: threeDs.eci,
    [`${raw}[av]`]: threeDs.authenticationValue,
    ...(threeDs.dsTransId ? { [`${raw}[ds_trans_id]`]: threeDs.dsTransId } : {}),
  };
}

/** `POST /authorizations/:id/captures` and `.../refunds`: an amount and, optionally, the text ([CH] captures.md, capture_refunds.md). */
export function toClearhausAmount(request: CaptureRequest | RefundRequest): Record<string, string> {
  const fields: Record<string, string> = { amount: amountField(request.amount, { zero: false }) };
  const text = clearhausTextOnStatement(request.textOnStatement);
  if (text) fields.text_on_statement = text;
  return fields;
}

/**
 * `POST /credits` ([CH] credits.md): no CSC; `card[name]` from the payout's names. The docs require
 * it for Mastercard Payments of Winnings and Mastercard cross-border credits, which we cannot tell
 * apart, so a Mastercard credit without a name is not sent. `ip` is not listed, but the docs' own
 * payout example sends it and unknown parameters are accepted: it goes out when known.
 */
export function toClearhausCredit(request: PayoutRequest): Record<string, string> {
  const scheme = clearhausScheme(request.card, request.currency);
  const fields: Record<string, string> = {
    amount: amountField(request.amount, { zero: false }),
    currency: request.currency,
    reference: clearhausReference(request.operationId),
    ...cardFields(request.card, false),
    ...ipField(request.customerIp),
  };
  const name = clearhausCardName(request.card, request.customer);
  if (name) fields["card[name]"] = name;
  else if (scheme === "mastercard") {
    throw new RequestNotFormedError(
      "clearhaus needs the recipient's name (card[name]) for a Mastercard credit: give firstname and surename",
    );
  }
  const text = clearhausTextOnStatement(request.textOnStatement ?? request.descriptor);
  if (text) fields.text_on_statement = text;
  return fields;
}

/** A transaction answer ([CH] examples, changes.md). */
export const clearhausTransaction = z.object({
  id: z.string().min(1),
  status: z.object({ code: z.number().int(), message: z.string().optional() }),
  processed_at: z.string().optional(),
  amount: z.number().optional(),
  currency: z.string().optional(),
  csc: z.object({ present: z.boolean().optional(), matches: z.boolean().optional() }).optional(),
  sca: z.object({ provided: z.boolean().optional(), necessary: z.boolean().optional() }).optional(),
  /** First-in-series: `tid` is the Visa transaction id, `tlid` and `economically_related_tlid` Mastercard's link ids. */
  series: z
    .object({
      type: z.string().optional(),
      tid: z.string().optional(),
      tlid: z.string().optional(),
      economically_related_tlid: z.string().optional(),
    })
    .optional(),
  /** Sandbox extension (not in Clearhaus' public docs): an approval code. */
  authorization_code: z.string().optional(),
  /** Sandbox extension: the scheme's Payment Account Reference. */
  payment_account_reference: z.string().optional(),
});
export type ClearhausTransaction = z.infer<typeof clearhausTransaction>;

/**
 * A refused request: HTTP 400 with a status and no transaction, e.g.
 * {"status":{"code":40000,"message":"parameter 'amount' is required"}} ([CH] status_message.md;
 * [AM-CH] parses 400 bodies as answers). The recorded "invalid transaction id" answers carry only the message.
 */
export const clearhausRefusal = z.object({
  status: z
    .object({ code: z.number().int().min(40000).max(49999).optional(), message: z.string().optional() })
    .refine((status) => status.code !== undefined || status.message !== undefined),
});
export type ClearhausRefusal = z.infer<typeof clearhausRefusal>;

/** Every status code Clearhaus documents. */
export const CLEARHAUS_STATUS_CODES = [
  20000, 40000, 40110, 40111, 40120, 40130, 40135, 40140, 40150, 40200, 40300, 40310, 40400, 40410, 40411, 40412, 40413, 40414, 40415,
  40416, 40420, 50000,
] as const;
export type ClearhausStatusCode = (typeof CLEARHAUS_STATUS_CODES)[number];

/** Clearhaus status code to our status and an ISO 8583 code (the ISO equivalents are our reading). */
export function mapClearhausStatus(code: ClearhausStatusCode): MappedStatus {
  switch (code) {
    case 20000:
      return { status: "approved", responsecode: RESPONSE_CODES.approved };
    case 40000:
      return refused("30");
    case 40110:
      return declined("14");
    case 40111:
      return refused("57");
    case 40120:
      return declined("N7");
    case 40130:
      return refused("30");
    case 40135:
      return declined("54");
    case 40140:
      return refused("13");
    case 40150:
      return refused("30");
    case 40200:
      return refused("12");
    case 40300:
      return refused("1A");
    case 40310:
      return declined("05");
    // "For the other codes the transaction is declined" [CH-status]: nothing is held; another acquirer may try.
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
    // whether it acted is unknown (the connector voids a 50000 authorization before routing on).
    case 50000:
      return { status: "failed", failure: "indeterminate", responsecode: RESPONSE_CODES.systemError };
    default: {
      const unhandled: never = code;
      throw new Error(`unhandled Clearhaus status ${String(unhandled)}`);
    }
  }
}

function mapCode(code: number): MappedStatus {
  return isDocumented(CLEARHAUS_STATUS_CODES, code)
    ? mapClearhausStatus(code)
    : { status: "failed", failure: code >= 50000 ? "indeterminate" : "declined", responsecode: RESPONSE_CODES.systemError };
}

/** The routing's class of a status code, and the message that says when the code has no public meaning. */
function classified(code: number, mapped: MappedStatus, message: string | undefined): Pick<ProcessorResult, "declineClass" | "message"> {
  const { class: declineClass, documented } = clearhausDeclineClass(code);
  // An undocumented 5xxxx is an error of Clearhaus' whose outcome is unknown (mapCode): nothing decided.
  if (!documented && mapped.failure === "indeterminate") return { declineClass: "technical", message };
  return {
    declineClass,
    message: documented ? message : [message, `status ${code} is not in Clearhaus' code table: declined-soft`].filter(Boolean).join("; "),
  };
}

export function fromClearhausTransaction(transaction: ClearhausTransaction, eci?: string): ProcessorResult {
  const code = transaction.status.code;
  const mapped = mapCode(code);
  const approved = mapped.status === "approved";
  return {
    ...mapped,
    processorReference: transaction.id,
    authorizationcode: approved ? transaction.authorization_code : undefined,
    eci: mapped.status === "failed" ? undefined : eci,
    par: approved ? transaction.payment_account_reference : undefined,
    // The scheme's id of the first-in-series (Visa TID): what a later MIT names at another acquirer.
    scheme: approved && transaction.series?.tid ? { schemeTransactionId: transaction.series.tid } : undefined,
    acquirerCode: String(code),
    ...classified(code, mapped, transaction.status.message),
  };
}

/** A 4xx refusal: nothing was done (an input error, an unknown transaction id, a bad signature). */
export function fromClearhausRefusal(refusal: ClearhausRefusal): ProcessorResult {
  const code = refusal.status.code ?? 40000;
  const mapped = mapCode(code);
  return { ...mapped, acquirerCode: String(code), ...classified(code, mapped, refusal.status.message) };
}

/**
 * What an answer below HTTP 500 says (the client handles 5xx, 401 and 404 before): a transaction
 * (approved or declined by its status code), or a refusal (a status and no transaction: nothing
 * was done). Undefined: an answer we cannot read.
 */
export function fromClearhausAnswer(text: string, eci?: string): ProcessorResult | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const transaction = clearhausTransaction.safeParse(json);
  if (transaction.success) return fromClearhausTransaction(transaction.data, eci);
  const refusal = clearhausRefusal.safeParse(json);
  return refusal.success ? fromClearhausRefusal(refusal.data) : undefined;
}
