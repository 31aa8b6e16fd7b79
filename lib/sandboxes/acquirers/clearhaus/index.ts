// Clearhaus sandbox, written from the Gateway API docs and ActiveMerchant's recordings
// (docs/acquirers/references/clearhaus.md; source ids [CH], [AM-CH] there), never from our connector.
// Basic auth with a merchant account's API key; form bodies with bracketed keys; HAL JSON answers.
// It refuses what the reference refuses: a missing or malformed parameter (HTTP 400,
// {"status":{"code":40000,"message":"parameter '<name>' is required"}}), a Signature header that
// does not verify (RS256 over the raw body), incomplete raw 3-D Secure data, a broken series,
// an unknown authorization id ("invalid transaction id"), and every path the API does not have (404).
// Test rules as test_card_numbers.md states them: the special test PANs and non-Luhn PANs approve,
// the amount is the status code for 420000…0000 and 555555…4444, and only CSC 987 matches.
// An API key points to one merchant account, which sees and refers to its own transactions only.
//
// Sandbox-only extensions (off unless `extensions`): the scenario test cards (test-cards.ts), a
// look-up by our reference (GET /transactions?reference=), a card-update feed (GET /card_updates and
// POST /sandbox/card-updates), replayed answers for a repeated Idempotency-Key, and an approval code
// and PAR in approvals. None of them exists at Clearhaus.
import { createHash, createPublicKey, randomInt, randomUUID, verify } from "node:crypto";
import { isIP } from "node:net";
import { isLuhnValid } from "../../../cards/luhn";
import { captureDeclineCode, decideAuthorization, findTestCard, type SandboxDeclineCode } from "../test-cards";
import { pick, SandboxLedger, type LedgerError, type LedgerResult, type SandboxTransaction } from "../ledger";
import { REPORT_CARD_UPDATE_PATH, SandboxCardUpdates } from "../card-updates";
import { holdUntilAborted, sameSecret, withIdempotencyKeys, type FetchHandler } from "../serve";
import { DEFAULT_HANG_MS, sandboxPar } from "../scheme-data";
import {
  CLEARHAUS_SANDBOX_ACCOUNTS,
  CLEARHAUS_SANDBOX_SIGNING_PARTNERS,
  type ClearhausSandboxAccount,
  type ClearhausSandboxSigningPartner,
} from "./accounts";

/** The API key of the first sandbox account (the demo merchant's). */
export const CLEARHAUS_SANDBOX_API_KEY = CLEARHAUS_SANDBOX_ACCOUNTS[0]!.apiKey;

/** [CH] getting_started/response_format. */
const MEDIA_TYPE = "application/vnd.clearhaus-gateway.hal+json; version=0.10.0; charset=utf-8";

/** [CH] api_reference/transaction_status/transaction_status_codes_table.md: 20000 is the only approval. */
const STATUS = {
  approved: 20000,
  inputError: 40000,
  invalidCardNumber: 40110,
  unsupportedScheme: 40111,
  invalidCsc: 40120,
  invalidExpireDate: 40130,
  cardExpired: 40135,
  invalidCurrency: 40140,
  invalidTextOnStatement: 40150,
  ruleViolation: 40200,
  threeDsProblem: 40300,
  threeDsFailure: 40310,
  backendProblem: 40400,
  declined: 40410,
  cardRestricted: 40411,
  lostOrStolen: 40412,
  insufficientFunds: 40413,
  suspectedFraud: 40414,
  amountLimitExceeded: 40415,
  authenticationRequired: 40416,
  merchantBlocked: 40420,
  clearhausError: 50000,
} as const;
const STATUS_CODES = new Set<number>(Object.values(STATUS));

/** [CH] test_card_numbers.md: the special test PANs. */
const SPECIAL_TEST_PANS = new Set(["2221000000000009", "4111111111111111", "5000000000000004"]);
/** The CSC that matches on the test gateway, "987—and only 987". */
const MATCHING_CSC = "987";

/** The scenario cards' decline codes (ISO 8583) as Clearhaus status codes: the sandbox's own table. */
const SCENARIO_CODES: Record<SandboxDeclineCode, number> = {
  "05": STATUS.declined,
  "14": STATUS.invalidCardNumber,
  "51": STATUS.insufficientFunds,
  "54": STATUS.cardExpired,
  "1A": STATUS.authenticationRequired,
  N7: STATUS.invalidCsc,
  // "Merchant blocked by cardholder" (transaction_status_codes_table.md): Clearhaus' stop order.
  R1: STATUS.merchantBlocked,
};

export interface ClearhausSandboxOptions {
  /** The merchant accounts it knows (default CLEARHAUS_SANDBOX_ACCOUNTS). */
  accounts?: readonly ClearhausSandboxAccount[];
  /** The signing partners whose `Signature` it verifies (default CLEARHAUS_SANDBOX_SIGNING_PARTNERS). */
  signingPartners?: readonly ClearhausSandboxSigningPartner[];
  hangMs?: number;
  /** The sandbox-only extensions (see the header). Default false: only what the docs describe. */
  extensions?: boolean;
}

export interface ClearhausSandbox {
  handler: FetchHandler;
  ledger: SandboxLedger;
  cardUpdates: SandboxCardUpdates;
}

type Fields = Record<string, string>;

function hal(body: unknown, status = 201): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": MEDIA_TYPE } });
}

/** An input error: HTTP 400 with a status and no transaction ([CH] status_message.md; [AM-CH] parses 400 bodies). */
function inputError(message: string, code: number = STATUS.inputError): Response {
  return hal({ status: { code, message } }, 400);
}

const required = (name: string) => inputError(`parameter '${name}' is required`);
const invalid = (name: string) => inputError(`parameter '${name}' is invalid`);

/** "401 Not Authorized", no body ([CH] authentication.md). */
const notAuthorized = () => new Response(null, { status: 401, statusText: "Not Authorized" });
const notFound = () => new Response(null, { status: 404 });

/** Visa and Mastercard (with Maestro) only: [AM-CH] supported_cardtypes; others get 40111. */
function schemeOf(pan: string): "visa" | "mastercard" | undefined {
  if (pan.startsWith("4")) return "visa";
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720) || two === 50 || (two >= 56 && two <= 69)) return "mastercard";
  return undefined;
}

/** `text_on_statement`: [\x20-\x7E]{2,22}, not all digits, not all the same character, not sequential. */
function validTextOnStatement(text: string): boolean {
  if (!/^[\x20-\x7E]{2,22}$/.test(text) || /^\d+$/.test(text) || new Set(text).size === 1) return false;
  const codes = [...text].map((character) => character.charCodeAt(0));
  const sequential = codes.every((code, index) => index === 0 || code === codes[index - 1]! + 1);
  return !sequential;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const BASE64_28 = /^[A-Za-z0-9+/]{27}=$|^[A-Za-z0-9+/]{28}$/;

interface ThreeDs {
  transStatus: string;
  eci?: string;
  authenticationValue?: string;
  version: string;
  messageType: "ARes" | "RReq";
}

/**
 * `card[3dsecure][v2]`: exactly one of `ares`, `rreq` (the whole message as JSON) or `raw`
 * ([CH] authentications/3dsecure_v2.md). Raw needs trans_status, message_version and message_type,
 * eci and av for Visa (Mastercard: when trans_status is Y, A, I or U) and ds_trans_id for Mastercard.
 */
function readThreeDs(fields: Fields, scheme: "visa" | "mastercard"): ThreeDs | Response | undefined {
  const prefix = "card[3dsecure][v2]";
  const methods = ["ares", "rreq", "raw"].filter((method) =>
    Object.keys(fields).some((key) => key === `${prefix}[${method}]` || key.startsWith(`${prefix}[${method}][`)),
  );
  if (Object.keys(fields).some((key) => key.startsWith("card[3dsecure][v1]"))) return invalid("card[3dsecure][v1]");
  if (methods.length === 0) return undefined;
  if (methods.length > 1) return inputError("only one of card[3dsecure][v2][ares], [rreq] and [raw] may be given");
  const method = methods[0]!;
  if (method !== "raw") {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(fields[`${prefix}[${method}]`] ?? "") as Record<string, unknown>;
    } catch {
      return invalid(`${prefix}[${method}]`);
    }
    const expected = method === "ares" ? "ARes" : "RReq";
    if (message.messageType !== expected || typeof message.transStatus !== "string" || typeof message.messageVersion !== "string")
      return invalid(`${prefix}[${method}]`);
    return {
      transStatus: message.transStatus,
      eci: typeof message.eci === "string" ? message.eci : undefined,
      authenticationValue: typeof message.authenticationValue === "string" ? message.authenticationValue : undefined,
      version: message.messageVersion,
      messageType: expected,
    };
  }
  const raw = (name: string) => fields[`${prefix}[raw][${name}]`];
  const transStatus = raw("trans_status");
  if (transStatus === undefined) return required(`${prefix}[raw][trans_status]`);
  if (!/^[A-Z]$/.test(transStatus)) return invalid(`${prefix}[raw][trans_status]`);
  const version = raw("message_version");
  if (version === undefined) return required(`${prefix}[raw][message_version]`);
  if (!/^2[.][0-9][.][0-9]$/.test(version)) return invalid(`${prefix}[raw][message_version]`);
  const messageType = raw("message_type");
  if (messageType === undefined) return required(`${prefix}[raw][message_type]`);
  if (messageType !== "ARes" && messageType !== "RReq") return invalid(`${prefix}[raw][message_type]`);
  const authenticationType = raw("authentication_type");
  if (authenticationType !== undefined && !/^[0-9]{2}$/.test(authenticationType)) return invalid(`${prefix}[raw][authentication_type]`);
  const needsValue = scheme === "visa" || ["Y", "A", "I", "U"].includes(transStatus);
  const eci = raw("eci");
  const av = raw("av");
  if (eci === undefined && needsValue) return required(`${prefix}[raw][eci]`);
  if (eci !== undefined && !/^[0-9]{2}$/.test(eci)) return invalid(`${prefix}[raw][eci]`);
  if (av === undefined && needsValue) return required(`${prefix}[raw][av]`);
  if (av !== undefined && !BASE64_28.test(av)) return invalid(`${prefix}[raw][av]`);
  const dsTransId = raw("ds_trans_id");
  if (dsTransId === undefined && scheme === "mastercard") return required(`${prefix}[raw][ds_trans_id]`);
  if (dsTransId !== undefined && !UUID.test(dsTransId)) return invalid(`${prefix}[raw][ds_trans_id]`);
  return { transStatus, eci, authenticationValue: av, version, messageType };
}

/** A Visa transaction id ([0-9]{15}) or a Mastercard link id ([A-Za-z0-9_-]{22}), as a first-in-series answer carries them. */
function seriesIds(scheme: "visa" | "mastercard"): Record<string, string> {
  if (scheme === "visa") return { tid: Array.from({ length: 15 }, () => String(randomInt(10))).join("") };
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  const link = () => Array.from({ length: 22 }, () => alphabet[randomInt(alphabet.length)]).join("");
  return { tlid: link(), economically_related_tlid: link() };
}

const LEDGER_MESSAGES: Record<LedgerError, string> = {
  not_found: "invalid transaction id",
  not_approved: "authorization is not approved",
  voided: "authorization is voided",
  already_captured: "authorization is captured",
  amount_exceeds_authorized: "amount exceeds the remaining authorized amount",
  amount_exceeds_captured: "amount exceeds the captured amount not refunded",
  nothing_captured: "nothing is captured",
  not_a_capture: "invalid transaction id",
  invalid_amount: "parameter 'amount' is invalid",
  currency_mismatch: "currency differs from the authorization",
};

/** A card, kept as a hash: the sandbox links a series to its card without keeping the number. */
function cardKey(pan: string): string {
  return createHash("sha256").update(pan).digest("hex");
}

export function createClearhausSandbox(options: ClearhausSandboxOptions = {}): ClearhausSandbox {
  const accounts = options.accounts ?? CLEARHAUS_SANDBOX_ACCOUNTS;
  const partners = options.signingPartners ?? CLEARHAUS_SANDBOX_SIGNING_PARTNERS;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const extensions = options.extensions ?? false;
  const ledger = new SandboxLedger();
  const cardUpdates = new SandboxCardUpdates();
  /** Scenario card 4000000000000341: approved authorizations whose captures are declined, by id. */
  const captureDeclines = new Set<string>();
  /** Per account, the cards with an approved `credential_on_file=store` (the condition for `initiator=merchant`). */
  const storedCards = new Set<string>();

  /** The merchant account the request's API key points to. */
  function accountOf(request: Request): ClearhausSandboxAccount | undefined {
    const header = request.headers.get("authorization") ?? "";
    if (!header.startsWith("Basic ")) return undefined;
    const decoded = Buffer.from(header.slice(6), "base64").toString();
    const separator = decoded.indexOf(":");
    if (separator < 0 || decoded.slice(separator + 1) !== "") return undefined;
    const user = decoded.slice(0, separator);
    return accounts.find((account) => sameSecret(user, account.apiKey));
  }

  /**
   * `Signature: <signing-api-key> RS256-hex <signature>` over the exact body bytes ([CH] signing_requests,
   * rsa_signature). Absent: unsigned (a merchant's own key). Present: it must verify, "otherwise the
   * transaction will fail"; an unknown key id reads `invalid signing api-key` ([AM-CH-R] L49-56).
   */
  function checkSignature(request: Request, body: string): { signed: boolean } | Response {
    const header = request.headers.get("signature");
    if (header === null) return { signed: false };
    const match = /^(\S+) RS256-hex ([0-9a-f]+)$/.exec(header.trim());
    const partner = match ? partners.find((candidate) => candidate.signingApiKey === match[1]) : undefined;
    if (!match || !partner) return inputError("invalid signing api-key");
    const valid = verify("sha256", Buffer.from(body), createPublicKey(partner.publicKeyPem), Buffer.from(match[2]!, "hex"));
    return valid ? { signed: true } : inputError("invalid signature");
  }

  interface CardInput {
    pan: string;
    expMonth: number;
    expYear: number;
    csc?: string;
    scheme: "visa" | "mastercard";
  }

  /** `card[...]` ([CH] authorizations_methods/card.md): a Response when it is missing or malformed. */
  function readCard(fields: Fields, { cscRequired }: { cscRequired: boolean }): CardInput | Response {
    const pan = fields["card[pan]"];
    if (pan === undefined) return required("card[pan]");
    if (!/^[0-9]{12,19}$/.test(pan)) return invalid("card[pan]");
    const month = fields["card[expire_month]"];
    if (month === undefined) return required("card[expire_month]");
    if (!/^(0[1-9]|1[0-2])$/.test(month)) return invalid("card[expire_month]");
    const year = fields["card[expire_year]"];
    if (year === undefined) return required("card[expire_year]");
    if (!/^20[0-9]{2}$/.test(year)) return invalid("card[expire_year]");
    const csc = fields["card[csc]"];
    if (csc === undefined && cscRequired) return required("card[csc]");
    if (csc !== undefined && !/^[0-9]{3}$/.test(csc)) return invalid("card[csc]");
    const scheme = schemeOf(pan);
    if (!scheme) return inputError("unsupported card scheme", STATUS.unsupportedScheme);
    return { pan, expMonth: Number(month), expYear: Number(year), csc, scheme };
  }

  /** Checks shared by authorizations and credits: amount, currency, reference, text_on_statement, ip. */
  function readCommon(fields: Fields, { zeroAmount }: { zeroAmount: boolean }): { amount: number; currency: string } | Response {
    const amount = fields.amount;
    if (amount === undefined) return required("amount");
    if (!(zeroAmount ? /^(0|[1-9][0-9]{0,8})$/ : /^[1-9][0-9]{0,8}$/).test(amount)) return invalid("amount");
    const currency = fields.currency;
    if (currency === undefined) return required("currency");
    if (!/^[A-Z]{3}$/.test(currency)) return invalid("currency");
    if (fields.reference !== undefined && !/^[\x20-\x7E]{1,30}$/.test(fields.reference)) return invalid("reference");
    if (fields.text_on_statement !== undefined && !validTextOnStatement(fields.text_on_statement))
      return inputError("parameter 'text_on_statement' is invalid", STATUS.invalidTextOnStatement);
    if (fields.ip !== undefined && (!/^[0-9.a-fA-F:]{3,45}$/.test(fields.ip) || isIP(fields.ip) === 0)) return invalid("ip");
    return { amount: Number(amount), currency };
  }

  type Decision =
    | { kind: "status"; code: number; message?: string }
    | { kind: "hang" }
    | { kind: "approve_late" }
    | { kind: "approve_but_decline_captures" };

  /** What the test gateway answers for this card and amount ([CH] test_card_numbers.md), with the scenario cards when extended. */
  function decide(card: CardInput, amount: number, currency: string, threeDs: ThreeDs | undefined, merchantInitiated: boolean): Decision {
    const knownCurrencies = new Set(Intl.supportedValuesOf("currency"));
    if (!knownCurrencies.has(currency)) return { kind: "status", code: STATUS.invalidCurrency, message: "invalid currency" };
    const now = new Date();
    if (card.expYear < now.getUTCFullYear() || (card.expYear === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1))
      return { kind: "status", code: STATUS.cardExpired };
    // Amount as status: "you can specify a valid status code as transaction amount to trigger the
    // status; any other transaction amount will result in 40110".
    if ((card.pan.startsWith("420000") && card.pan.endsWith("0000")) || (card.pan.startsWith("555555") && card.pan.endsWith("4444"))) {
      return { kind: "status", code: STATUS_CODES.has(amount) ? amount : STATUS.invalidCardNumber };
    }
    if (extensions && findTestCard(card.pan)) {
      const decision = decideAuthorization({
        processor: "clearhaus",
        card: { pan: card.pan, expMonth: card.expMonth, expYear: card.expYear },
        eci: threeDs && ["Y", "A"].includes(threeDs.transStatus) ? threeDs.eci : undefined,
        authenticationValue: threeDs?.authenticationValue,
        merchantInitiated,
        amount,
      });
      switch (decision.kind) {
        case "hang":
        case "approve_late":
          return decision;
        case "decline":
          return { kind: "status", code: SCENARIO_CODES[decision.code] };
        case "approve":
        case "approve_partially":
          return captureDeclineCode(card.pan) ? { kind: "approve_but_decline_captures" } : { kind: "status", code: STATUS.approved };
      }
    }
    if (SPECIAL_TEST_PANS.has(card.pan) || !isLuhnValid(card.pan)) return { kind: "status", code: STATUS.approved };
    // Any other real-looking number: "please use" the test PANs; the test gateway cannot approve it.
    // With the extensions on, any valid card approves (the scenario cards' default).
    return extensions ? { kind: "status", code: STATUS.approved } : { kind: "status", code: STATUS.invalidCardNumber };
  }

  function links(id: string) {
    return {
      captures: { href: `/authorizations/${id}/captures` },
      refunds: { href: `/authorizations/${id}/refunds` },
      voids: { href: `/authorizations/${id}/voids` },
    };
  }

  /** The extensions' additions to an approval: an approval code and the PAR (neither exists at Clearhaus). */
  function extensionFields(transaction: SandboxTransaction, pan: string): Record<string, unknown> {
    if (!extensions || !transaction.approved) return {};
    return { authorization_code: transaction.authorizationCode, payment_account_reference: sandboxPar(pan) };
  }

  async function authorize(
    account: ClearhausSandboxAccount,
    fields: Fields,
    signed: boolean,
    signal: AbortSignal,
  ): Promise<Response | "hang"> {
    const common = readCommon(fields, { zeroAmount: true });
    if (common instanceof Response) return common;
    for (const method of ["applepay", "googlepay", "mobilepayonline", "moto", "token", "vipps"]) {
      if (Object.keys(fields).some((key) => key.startsWith(`${method}[`)))
        return inputError(`payment method '${method}' is not available for this account`);
    }
    if (fields.credential_on_file !== undefined && !["store", "use"].includes(fields.credential_on_file))
      return invalid("credential_on_file");
    if (fields.initiator !== undefined && !["cardholder", "merchant"].includes(fields.initiator)) return invalid("initiator");
    const seriesType = fields["series[type]"];
    const previousId = fields["series[previous][id]"];
    const previousOther = Object.keys(fields).some((key) => /^series\[previous\]\[(visa|mastercard)\]/.test(key));
    if (seriesType !== undefined && !["recurring", "unscheduled"].includes(seriesType)) return invalid("series[type]");
    if (seriesType !== undefined && (previousId !== undefined || previousOther))
      return inputError("series[type] cannot be supplied together with series[previous]");
    if (fields.sca_exemption !== undefined && (seriesType !== undefined || previousId !== undefined || previousOther))
      return inputError("sca_exemption cannot be supplied together with series");
    if (previousOther) return inputError("series[previous][visa|mastercard] needs Clearhaus' approval, which this account does not have");
    if (previousId !== undefined && !UUID.test(previousId)) return invalid("series[previous][id]");
    const subsequent = previousId !== undefined;
    const initiator = fields.initiator ?? (subsequent ? "merchant" : "cardholder");
    const credentialOnFile = fields.credential_on_file ?? (subsequent ? "use" : seriesType ? "store" : undefined);
    if (subsequent && initiator === "cardholder")
      return inputError("initiator cardholder is invalid for a subsequent-in-series authorization");
    if (initiator === "merchant" && credentialOnFile === "store")
      return inputError("credential_on_file store is invalid with initiator merchant");
    // The CSC is required unless a trusted partner signed the request, and forbidden on a subsequent-in-series.
    const card = readCard(fields, { cscRequired: !subsequent && !signed });
    if (card instanceof Response) return card;
    if (subsequent && card.csc !== undefined) return inputError("card[csc] cannot be given on a subsequent-in-series authorization");
    const threeDs = readThreeDs(fields, card.scheme);
    if (threeDs instanceof Response) return threeDs;
    if (subsequent && threeDs?.messageType === "RReq")
      return inputError("card[3dsecure][v2][rreq] cannot be given on a subsequent-in-series authorization");
    let series: SandboxTransaction["series"];
    if (subsequent) {
      const previous = ledger.get(account.merchantId, previousId);
      if (!previous?.approved || !previous.series || previous.kind !== "authorization" || previous.cardKey !== cardKey(card.pan))
        return inputError("parameter 'series[previous][id]' is invalid");
      series = { ...previous.series, first: false };
    } else if (seriesType) {
      series = { type: seriesType as "recurring" | "unscheduled", first: true };
    }
    // "there should be a previously approved transaction (for the combination of card and merchant)
    // where credential_on_file=store before initiator may be merchant" ([CH] authorizations.md).
    if (initiator === "merchant" && !storedCards.has(`${account.merchantId}\n${cardKey(card.pan)}`))
      return inputError("initiator merchant needs an earlier approved authorization of this card with credential_on_file store");

    const decision = decide(card, common.amount, common.currency, threeDs, initiator === "merchant");
    if (decision.kind === "hang") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    const code = decision.kind === "status" ? decision.code : STATUS.approved;
    const transaction = ledger.record({
      account: account.merchantId,
      kind: "authorization",
      amount: common.amount,
      currency: common.currency,
      approved: code === STATUS.approved,
      // "Allowing voids on status code 50000 authorizations" ([CH] changes.md): it may hold funds.
      holds: code === STATUS.clearhausError,
      requestId: fields.reference,
      cardKey: cardKey(card.pan),
      series: code === STATUS.approved ? series : undefined,
      storedCredential: pick(fields, ["initiator", "credential_on_file", "series[type]", "series[previous][id]"]),
    });
    if (decision.kind === "approve_late") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    if (decision.kind === "approve_but_decline_captures") captureDeclines.add(transaction.id);
    if (transaction.approved && credentialOnFile === "store") storedCards.add(`${account.merchantId}\n${transaction.cardKey}`);
    const authenticated = threeDs !== undefined && ["Y", "A"].includes(threeDs.transStatus);
    return hal({
      id: transaction.id,
      status: decision.kind === "status" && decision.message ? { code, message: decision.message } : { code },
      processed_at: new Date().toISOString(),
      amount: common.amount,
      currency: common.currency,
      csc: { present: card.csc !== undefined, matches: card.csc === MATCHING_CSC },
      ...(threeDs ? { "3dsecure": { version: threeDs.version, status: threeDs.transStatus } } : {}),
      sca: { provided: authenticated, necessary: false },
      liable_for_fraud_disputes: authenticated ? "issuer" : "merchant",
      ...(code === STATUS.authenticationRequired ? { retry: { when: "now", with: ["strong authentication"] } } : {}),
      ...(transaction.series?.first ? { series: { type: transaction.series.type, ...seriesIds(card.scheme) } } : {}),
      ...extensionFields(transaction, card.pan),
      _links: links(transaction.id),
    });
  }

  async function credit(account: ClearhausSandboxAccount, fields: Fields, signal: AbortSignal): Promise<Response | "hang"> {
    const common = readCommon(fields, { zeroAmount: false });
    if (common instanceof Response) return common;
    const card = readCard(fields, { cscRequired: false });
    if (card instanceof Response) return card;
    const name = fields["card[name]"];
    if (name !== undefined && !/^[A-Za-z0-9 ]{1,30}$/.test(name)) return invalid("card[name]");
    // Required for Mastercard Payment of Winnings and Mastercard cross-border credits ([CH] credits.md,
    // changes.md 2025-04-28). The sandbox cannot tell either, so it asks for it on every Mastercard credit.
    if (name === undefined && card.scheme === "mastercard") return required("card[name]");
    const decision = decide(card, common.amount, common.currency, undefined, true);
    if (decision.kind === "hang") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    const code = decision.kind === "status" ? decision.code : STATUS.approved;
    const transaction = ledger.record({
      account: account.merchantId,
      kind: "payout",
      amount: common.amount,
      currency: common.currency,
      approved: code === STATUS.approved,
      requestId: fields.reference,
    });
    if (decision.kind === "approve_late") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    return hal({
      id: transaction.id,
      status: decision.kind === "status" && decision.message ? { code, message: decision.message } : { code },
      processed_at: new Date().toISOString(),
      amount: common.amount,
      currency: common.currency,
      ...(extensions && transaction.approved ? { authorization_code: transaction.authorizationCode } : {}),
    });
  }

  /** A capture, refund or void that the ledger refused: a transaction with a rule-violation status. */
  function followUpAnswer(result: LedgerResult, authorizationId: string): Response {
    if (!result.ok) {
      if (result.error === "not_found") return inputError(LEDGER_MESSAGES.not_found);
      if (result.error === "invalid_amount") return invalid("amount");
      return hal({
        id: randomUUID(),
        status: { code: STATUS.ruleViolation, message: LEDGER_MESSAGES[result.error] },
        processed_at: new Date().toISOString(),
        _links: { authorization: { href: `/authorizations/${authorizationId}` } },
      });
    }
    return hal({
      id: result.operation.id,
      status: { code: STATUS.approved },
      processed_at: new Date().toISOString(),
      amount: result.operation.amount,
      _links: {
        authorization: { href: `/authorizations/${authorizationId}` },
        ...(result.operation.kind === "capture" ? { refunds: { href: `/authorizations/${authorizationId}/refunds` } } : {}),
      },
    });
  }

  function followUp(account: ClearhausSandboxAccount, id: string, action: string, fields: Fields): Response {
    // An id this account never made reads "invalid transaction id" ([AM-CH-R] L127-131, L150-154, L175-179).
    const authorization = ledger.get(account.merchantId, id);
    if (!authorization || authorization.kind !== "authorization") return inputError(LEDGER_MESSAGES.not_found);
    const amount = fields.amount;
    if (action !== "voids" && amount !== undefined && !/^[1-9][0-9]{0,8}$/.test(amount)) return invalid("amount");
    if (action !== "voids" && fields.text_on_statement !== undefined && !validTextOnStatement(fields.text_on_statement))
      return inputError("parameter 'text_on_statement' is invalid", STATUS.invalidTextOnStatement);
    const value = amount === undefined ? undefined : Number(amount);
    switch (action) {
      case "captures":
        if (captureDeclines.has(id) && authorization.approved && !authorization.voided) {
          // A declined capture (scenario card): a transaction with a status other than 20000, the
          // authorization unchanged. Captures can return 40200, not the issuer's codes ([CH] status table).
          return hal({
            id: randomUUID(),
            status: { code: STATUS.ruleViolation, message: "capture declined" },
            processed_at: new Date().toISOString(),
            amount: value ?? authorization.amount - authorization.capturedAmount,
            _links: { authorization: { href: `/authorizations/${id}` } },
          });
        }
        return followUpAnswer(ledger.capture(account.merchantId, id, value), id);
      case "refunds":
        return followUpAnswer(ledger.refund(account.merchantId, id, value), id);
      default:
        return followUpAnswer(ledger.void(account.merchantId, id), id);
    }
  }

  const strictHandler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const account = accountOf(request);
    if (!account) return notAuthorized();
    if (request.method === "GET") {
      // [CH] resource_discovery.md, account.md: the only GET resources.
      if (path === "/") return hal({ _links: { authorizations: { href: "/authorizations" }, account: { href: "/account" } } }, 200);
      if (path === "/account") {
        return hal(
          {
            merchant_id: account.merchantId,
            descriptor: account.descriptor,
            name: account.name,
            country: account.country,
            currency: account.currency,
            mcc: account.mcc,
            acquirer: { visa_bin: Number(account.visaBin), mastercard_bin: Number(account.mastercardBin) },
            transaction_rules: "",
          },
          200,
        );
      }
      return notFound();
    }
    if (request.method !== "POST") return notFound();
    const followUpPath = /^\/authorizations\/([^/]+)\/(captures|refunds|voids)$/.exec(path);
    const debits = path === "/debits" || /^\/debits\/[^/]+\/refunds$/.test(path);
    if (path !== "/authorizations" && path !== "/credits" && !followUpPath && !debits) return notFound();
    const body = await request.text();
    const signature = checkSignature(request, body);
    if (signature instanceof Response) return signature;
    const fields: Fields = Object.fromEntries(new URLSearchParams(body));
    if (debits) return inputError("debits are available to AFT and FT merchants only");
    if (followUpPath) return followUp(account, decodeURIComponent(followUpPath[1]!), followUpPath[2]!, fields);
    const answer =
      path === "/credits"
        ? await credit(account, fields, request.signal)
        : await authorize(account, fields, signature.signed, request.signal);
    return answer === "hang" ? new Response(null, { status: 504 }) : answer;
  };

  if (!extensions) return { handler: strictHandler, ledger, cardUpdates };

  /**
   * Extension: the look-up by our reference (the `reference` of an authorization or credit, the first
   * 30 characters of the Idempotency-Key of a capture, refund or void), as the original answer.
   */
  const answersByReference = new Map<string, unknown>();
  const extended: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === REPORT_CARD_UPDATE_PATH) return cardUpdates.answerReport(request);
    const account = accountOf(request);
    if (request.method === "GET" && url.pathname === "/card_updates") {
      if (!account) return notAuthorized();
      const since = new Date(url.searchParams.get("since") ?? 0);
      return hal(
        {
          _embedded: {
            card_updates: cardUpdates.since(since, account.merchantId).map((update) => ({
              id: update.id,
              payment_account_reference: update.par,
              kind: update.kind,
              expire_month: update.newExpMonth ? String(update.newExpMonth).padStart(2, "0") : undefined,
              expire_year: update.newExpYear ? String(update.newExpYear) : undefined,
              pan: update.newPan,
              updated_at: update.updatedAt.toISOString(),
            })),
          },
        },
        200,
      );
    }
    if (request.method === "GET" && url.pathname === "/transactions") {
      if (!account) return notAuthorized();
      const reference = url.searchParams.get("reference") ?? "";
      const answered = answersByReference.get(`${account.merchantId}\n${reference}`);
      if (answered) return hal(answered, 200);
      const found = ledger.findByRequestId(account.merchantId, reference);
      if (!found) return hal({ status: { code: STATUS.inputError, message: "transaction not found" } }, 404);
      return hal(
        {
          id: found.id,
          status: { code: found.approved ? STATUS.approved : STATUS.declined },
          processed_at: found.createdAt.toISOString(),
          amount: found.amount,
          currency: found.currency,
          ...(found.approved ? { authorization_code: found.authorizationCode } : {}),
        },
        200,
      );
    }
    const key = request.headers.get("idempotency-key");
    const followUpRequest = request.method === "POST" && /^\/authorizations\/[^/]+\/(captures|refunds|voids)$/.test(url.pathname);
    const response = await strictHandler(request);
    if (followUpRequest && key && account && response.status < 500 && response.status !== 401) {
      const reference = `${account.merchantId}\n${key.slice(0, 30)}`;
      if (!answersByReference.has(reference)) answersByReference.set(reference, await response.clone().json());
    }
    return response;
  };

  return { handler: withIdempotencyKeys(extended), ledger, cardUpdates };
}
