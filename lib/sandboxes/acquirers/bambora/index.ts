// Bambora North America sandbox: the Payments API v1 as its documentation describes it (Swagger
// 1.0.5, guides; docs/acquirers.md "Bambora" lists every answer with its source): POST /v1/payments
// (card only), /v1/payments/{id}/completions|returns|void, GET /v1/payments/{id}, POST /v1/reports,
// with `Authorization: Passcode base64(merchant_id:passcode)` (the Payments API passcode, or the
// Reporting API passcode for reports), decimal amounts in the account's one currency, ErrorResponse
// bodies, the documented test cards, and 404 for anything else. Each merchant id is a test account
// that sees its own transactions only. Sandbox-only conveniences are off unless turned on:
// `sharedTestCards` (the service's test cards of lib/sandboxes/acquirers/test-cards.ts).
import { randomInt } from "node:crypto";
import { z } from "zod";
import { isLuhnValid } from "../../../cards/luhn";
import { decideAuthorization, findTestCard, captureDeclineCode, withoutPartialApproval } from "../test-cards";
import { SandboxLedger } from "../ledger";
import { holdUntilAborted, sameSecret, type FetchHandler } from "../serve";
import { DEFAULT_HANG_MS } from "../scheme-data";
import { BAMBORA_SANDBOX_ACCOUNTS, bamboraSandboxCredentials, type BamboraSandboxAccount } from "./accounts";
import {
  BAMBORA_TEST_CARDS,
  CARD_ON_FILE_TYPES,
  GATEWAY,
  MERCHANT_INITIATED_TYPES,
  SLOW_CARD_DELAY_MS,
  cardType,
  type CardOnFileType,
  type GatewayMessage,
  type TransactionType,
} from "./reference";

/** The credentials of the first sandbox account (the demo merchant's). */
export const BAMBORA_SANDBOX_CREDENTIALS = bamboraSandboxCredentials(BAMBORA_SANDBOX_ACCOUNTS[0]!);

export interface BamboraSandboxOptions {
  /** The test accounts it knows (default BAMBORA_SANDBOX_ACCOUNTS). */
  accounts?: readonly BamboraSandboxAccount[];
  /** Bounds every hold when the caller never gives up. */
  hangMs?: number;
  /** Sandbox-only, off unless turned on: the service's own test cards (README), answered in Bambora's format. */
  sharedTestCards?: boolean;
  /** How long the documented slow test cards take ("45+ seconds"). */
  slowCardDelayMs?: number;
  /** The clock (the same-day rule of voids); tests move it. */
  now?: () => Date;
}

export interface BamboraSandbox {
  handler: FetchHandler;
  /** The transactions in minor units (cents), in the shape every sandbox shares, for tests that compare books. */
  ledger: SandboxLedger;
}

interface Transaction {
  id: string;
  account: BamboraSandboxAccount;
  type: TransactionType;
  orderNumber: string;
  /** Cents. */
  amount: number;
  approved: boolean;
  messageId: number;
  message: string;
  authCode: string;
  created: Date;
  card: { type?: string; lastFour: string; bin: string; expiryMonth: string; expiryYear: string; name: string; cvd: boolean };
  /** The transaction this one adjusts (a completion's pre-authorization, a return's purchase or completion, a void's target). */
  adjusts?: string;
  /** The pre-authorization or purchase this belongs to: the ledger's transaction. */
  root: string;
  voided: boolean;
  cardOnFile?: { type: CardOnFileType; series_id: number };
  threeDs?: boolean;
}

/** The report fields a search criterion may name (by field id), and the value each compares. */
const SEARCH_FIELDS = new Map<string, (transaction: Transaction) => string | undefined>([
  ["1", (transaction) => transaction.id],
  ["5", (transaction) => transaction.orderNumber],
  ["8", (transaction) => transaction.type],
  ["23", (transaction) => transaction.adjusts],
]);

const moneyString = (cents: number) => (cents / 100).toFixed(2);

/** "YYYY-MM-DDTHH:mm:ss" of `date` in `timeZone`, and its offset ("-07:00"). */
function localTime(date: Date, timeZone: string): { text: string; offset: string } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? "";
  const offset = get("timeZoneName").replace("GMT", "") || "+00:00";
  return { text: `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}`, offset };
}

function errorResponse(answer: GatewayMessage, details?: { field: string; message: string }[]): Response {
  return Response.json(
    { code: answer.code, category: answer.category, message: answer.message, reference: "", ...(details ? { details } : {}) },
    { status: answer.status },
  );
}

const invalid = (field: string, text: string) => errorResponse(GATEWAY.missingOrInvalid, [{ field, message: text }]);

/** A decimal amount in dollars with up to two decimals, as cents; undefined when it is not one. */
function cents(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  const scaled = Math.round(value * 100);
  return Math.abs(scaled - value * 100) < 1e-6 ? scaled : undefined;
}

const stringOrNumber = z.union([z.string(), z.number()]).transform(String);
/** Rows are numbers in the swagger and strings in the docs' examples: both are taken. */
const row = z
  .union([z.string().regex(/^\d+$/), z.number().int()])
  .transform(Number)
  .pipe(z.number().int().min(1));

const cardSchema = z
  .object({
    name: z.string().min(1).max(64),
    number: z.string().regex(/^\d{1,20}$/),
    expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
    expiry_year: z.string().regex(/^\d{2}$/),
    cvd: z
      .string()
      .regex(/^\d{3,4}$/)
      .optional(),
    complete: z.boolean().optional(),
    "3d_secure_passthrough": z
      .object({
        version: z.union([z.literal(1), z.literal(2)]),
        eci: z.number().int().min(0).max(7),
        cavv: z.string().min(1).max(40).optional(),
        xid: z.string().max(40).optional(),
        ds_transaction_id: z.string().max(36).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** PaymentRequest with `payment_method: "card"`: every field the swagger lists is known; anything else is refused. */
const paymentSchema = z
  .object({
    order_number: z.string().min(1).max(30).optional(),
    amount: z.number(),
    payment_method: z.string(),
    customer_ip: z.string().max(30).optional(),
    term_url: z.string().max(256).optional(),
    device_channel: z.enum(["02", "03"]).optional(),
    language: z.string().max(3).optional(),
    comments: z.string().max(256).optional(),
    billing: z.record(z.string(), z.unknown()).optional(),
    shipping: z.record(z.string(), z.unknown()).optional(),
    ship_same_as_ord: z.boolean().optional(),
    custom: z.record(z.string(), z.string().max(256)).optional(),
    recurring_payment: z.boolean().optional(),
    card: cardSchema.optional(),
    card_on_file: z
      .object({ type: z.enum(CARD_ON_FILE_TYPES), series_id: z.number().int().positive().optional() })
      .strict()
      .optional(),
  })
  .strict();

const adjustmentSchema = z
  .object({ amount: z.number(), order_number: z.string().min(1).max(30).optional(), payment_method: z.literal("card").optional() })
  .strict();

const searchSchema = z
  .object({
    name: z.enum(["Search", "TransHistoryMinimal"]),
    start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    end_date: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    start_row: row,
    end_row: row,
    criteria: z.array(z.object({ field: stringOrNumber, operator: z.string(), value: stringOrNumber }).strict()).optional(),
  })
  .strict();

/** The first zod issue as an ErrorResponse `details` entry. */
function issueDetail(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.slice(0, 5).map((issue) => ({
    field: issue.path.join(".") || "body",
    message: issue.code === "unrecognized_keys" ? `not a field of this request: ${issue.keys.join(", ")}` : issue.message,
  }));
}

export function createBamboraSandbox(options: BamboraSandboxOptions = {}): BamboraSandbox {
  const accounts = options.accounts ?? BAMBORA_SANDBOX_ACCOUNTS;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const slowMs = options.slowCardDelayMs ?? SLOW_CARD_DELAY_MS;
  const now = options.now ?? (() => new Date());
  const ledger = new SandboxLedger();
  const transactions = new Map<string, Transaction>();
  /** Card-on-file series ids, by the merchant id of the account whose series it is. */
  const seriesOwners = new Map<number, string>();
  let nextId = randomInt(10_000_000, 90_000_000);
  let nextSeries = randomInt(1_000, 900_000);

  function authenticate(request: Request, api: "payments" | "reporting"): BamboraSandboxAccount | Response {
    const header = request.headers.get("authorization") ?? "";
    const encoded = /^Passcode (\S+)$/.exec(header)?.[1];
    const decoded = encoded ? Buffer.from(encoded, "base64").toString() : "";
    const colon = decoded.indexOf(":");
    const account = colon > 0 ? accounts.find((candidate) => candidate.merchantId === decoded.slice(0, colon)) : undefined;
    const passcode = account && (api === "payments" ? account.paymentsPasscode : account.reportingPasscode);
    if (!account || !passcode || !sameSecret(decoded.slice(colon + 1), passcode)) return errorResponse(GATEWAY.authenticationFailed);
    // Partners act for sub-merchants; no sandbox account is a partner.
    if (request.headers.has("sub-merchant-id"))
      return errorResponse({ ...GATEWAY.authenticationFailed, status: 403, message: "Authorization Failure" });
    return account;
  }

  function own(account: BamboraSandboxAccount, id: string): Transaction | undefined {
    const transaction = transactions.get(id);
    return transaction?.account === account ? transaction : undefined;
  }

  function orderNumberTaken(account: BamboraSandboxAccount, orderNumber: string): boolean {
    for (const transaction of transactions.values()) {
      if (transaction.account === account && transaction.orderNumber === orderNumber) return true;
    }
    return false;
  }

  function paymentResponse(transaction: Transaction): Record<string, unknown> {
    // What may follow (the recorded answers' links): a pre-authorization is completed; a purchase or
    // completion is returned or voided; a return is voided.
    const next: Record<TransactionType, readonly ("void" | "return" | "complete")[]> = {
      PA: ["complete"],
      P: ["void", "return"],
      PAC: ["void", "return"],
      R: ["void"],
      VP: [],
      VR: [],
    };
    const links = transaction.approved ? next[transaction.type] : [];
    const path = { void: "void", return: "returns", complete: "completions" } as const;
    return {
      id: transaction.id,
      authorizing_merchant_id: Number(transaction.account.merchantId),
      approved: transaction.approved ? "1" : "0",
      message_id: String(transaction.messageId),
      message: transaction.message,
      auth_code: transaction.authCode,
      created: localTime(transaction.created, transaction.account.timeZone).text,
      order_number: transaction.orderNumber,
      type: transaction.type,
      payment_method: "CC",
      risk_score: 0,
      amount: transaction.amount / 100,
      custom: { ref1: "", ref2: "", ref3: "", ref4: "", ref5: "" },
      card: {
        card_type: transaction.card.type,
        last_four: transaction.card.lastFour,
        card_bin: transaction.card.bin,
        address_match: 0,
        postal_result: 0,
        avs_result: "0",
        cvd_result: transaction.card.cvd ? "1" : "6",
        avs: { id: "0", message: "Address Verification not performed for this transaction.", processed: false },
      },
      links: links.map((rel) => ({ rel, href: `https://api.na.bambora.com/v1/payments/${transaction.id}/${path[rel]}`, method: "POST" })),
      ...(transaction.cardOnFile ? { card_on_file: transaction.cardOnFile } : {}),
    };
  }

  function record(input: Omit<Transaction, "id" | "created" | "voided" | "authCode" | "root"> & { root?: string }): Transaction {
    const id = String(nextId++);
    const transaction: Transaction = {
      ...input,
      id,
      root: input.root ?? id,
      created: now(),
      voided: false,
      authCode: input.approved ? "TEST" : "",
    };
    transactions.set(id, transaction);
    return transaction;
  }

  /** How the card decides, documented test cards first; undefined: the emulator approves. */
  function cardDecision(
    pan: string,
    amount: number,
    card: z.infer<typeof cardSchema>,
  ):
    | { kind: "approve" }
    | { kind: "decline"; answer: GatewayMessage }
    | { kind: "slow"; then: "approve" | GatewayMessage }
    | { kind: "hang" }
    | { kind: "late" } {
    const documented = BAMBORA_TEST_CARDS[pan];
    if (documented?.kind === "decline") return { kind: "decline", answer: GATEWAY.decline };
    if (documented?.kind === "amount_rule") return amount < 10_000 ? { kind: "approve" } : { kind: "decline", answer: GATEWAY.decline };
    if (documented?.kind === "slow") return documented;
    if (documented) return { kind: "approve" };
    if (!options.sharedTestCards || !findTestCard(pan)) return { kind: "approve" };
    const passthrough = card["3d_secure_passthrough"];
    const decision = decideAuthorization({
      processor: "bambora",
      card: { pan, expMonth: Number(card.expiry_month), expYear: 2000 + Number(card.expiry_year), securityCode: card.cvd },
      eci: passthrough ? String(passthrough.eci).padStart(2, "0") : undefined,
      authenticationValue: passthrough?.cavv,
      now: now(),
    });
    // Bambora North America documents no partial approval.
    const outcome = withoutPartialApproval(decision);
    if (outcome.kind !== "decline") return outcome;
    // The emulator answers 1 or 7; an issuer's demand for authentication is the gateway's 938.
    return { kind: "decline", answer: outcome.code === "1A" ? GATEWAY.authenticationRequired : GATEWAY.decline };
  }

  async function makePayment(account: BamboraSandboxAccount, json: unknown, signal: AbortSignal): Promise<Response> {
    const parsed = paymentSchema.safeParse(json);
    if (!parsed.success) return errorResponse(GATEWAY.missingOrInvalid, issueDetail(parsed.error));
    const body = parsed.data;
    if (body.payment_method !== "card") return errorResponse(GATEWAY.paymentMethodNotAccepted);
    const card = body.card;
    if (!card) return invalid("card", "card is required for payment_method card");
    const amount = cents(body.amount);
    if (amount === undefined || amount < 0) return invalid("amount", "a decimal value in dollars with up to two decimal places");
    if (amount > account.maxAmount * 100) return errorResponse(GATEWAY.invalidAmount);
    if (!isLuhnValid(card.number)) return errorResponse(GATEWAY.invalidCardNumber);
    const expiryEnd = new Date(Date.UTC(2000 + Number(card.expiry_year), Number(card.expiry_month), 1));
    if (expiryEnd <= now()) return errorResponse(GATEWAY.invalidExpiry);
    const complete = card.complete ?? true;
    // Credential on file (guides/credential_on_file): merchant-initiated types are purchases only and
    // continue a series of this account; a series id belongs to the account that made it.
    const cof = body.card_on_file;
    let cardOnFile: Transaction["cardOnFile"];
    if (cof && cof.type !== "not_card_on_file") {
      const subsequent = cof.type.startsWith("subsequent_");
      if (!subsequent && cof.series_id !== undefined) return errorResponse(GATEWAY.cardOnFileInvalid);
      if (MERCHANT_INITIATED_TYPES.includes(cof.type) && !complete) return errorResponse(GATEWAY.cardOnFileInvalid);
      if (cof.type === "subsequent_customer_initiated" && cof.series_id === undefined) return errorResponse(GATEWAY.cardOnFileInvalid);
      if (cof.series_id !== undefined && seriesOwners.get(cof.series_id) !== account.merchantId)
        return errorResponse(GATEWAY.cardOnFileInvalid);
      const seriesId = cof.series_id ?? nextSeries++;
      seriesOwners.set(seriesId, account.merchantId);
      cardOnFile = { type: cof.type, series_id: seriesId };
    }
    const orderNumber = body.order_number;
    if (orderNumber && orderNumberTaken(account, orderNumber)) return errorResponse(GATEWAY.duplicateOrderNumber);
    const decision = cardDecision(card.number, amount, card);
    if (decision.kind === "hang") {
      await holdUntilAborted(signal, hangMs);
      return new Response(null, { status: 504 });
    }
    const outcome = decision.kind === "slow" ? decision.then : decision.kind === "decline" ? decision.answer : "approve";
    const approved = outcome === "approve";
    const transaction = record({
      account,
      type: complete ? "P" : "PA",
      orderNumber: orderNumber ?? "",
      amount,
      approved,
      messageId: approved ? 1 : (outcome as GatewayMessage).code,
      message: approved ? "Approved" : (outcome as GatewayMessage).message,
      card: {
        type: cardType(card.number),
        lastFour: card.number.slice(-4),
        bin: card.number.slice(0, 6),
        expiryMonth: card.expiry_month,
        expiryYear: card.expiry_year,
        name: card.name,
        cvd: Boolean(card.cvd),
      },
      cardOnFile: approved ? cardOnFile : undefined,
      threeDs: Boolean(card["3d_secure_passthrough"]),
    });
    // "order_number ... defaults to the transaction id".
    if (!orderNumber) transaction.orderNumber = transaction.id;
    ledger.record({ id: transaction.id, account: account.merchantId, kind: "authorization", amount, currency: account.currency, approved });
    if (approved && complete) ledger.capture(account.merchantId, transaction.id, amount);
    if (approved && captureDeclineCode(card.number) && options.sharedTestCards) captureDeclines.add(transaction.id);
    if (decision.kind === "slow" || decision.kind === "late") {
      // Processed now; answered only after the delay, if the caller is still there.
      await holdUntilAborted(signal, decision.kind === "late" ? hangMs : Math.min(slowMs, hangMs));
      if (signal.aborted || decision.kind === "late") return new Response(null, { status: 504 });
    }
    if (!approved) return errorResponse(outcome as GatewayMessage);
    return Response.json(paymentResponse(transaction));
  }

  /** Pre-authorizations of the shared capture-declining test card (4000000000000341), by id. */
  const captureDeclines = new Set<string>();

  function adjustment(
    account: BamboraSandboxAccount,
    target: Transaction,
    type: TransactionType,
    amount: number,
    orderNumber: string | undefined,
  ): Transaction {
    const transaction = record({
      account,
      type,
      orderNumber: orderNumber ?? target.orderNumber,
      amount,
      approved: true,
      messageId: 1,
      message: "Approved",
      card: target.card,
      adjusts: target.id,
      root: target.root,
    });
    return transaction;
  }

  function adjustments(of: string, types: readonly TransactionType[]): Transaction[] {
    return [...transactions.values()].filter(
      (transaction) => transaction.adjusts === of && types.includes(transaction.type) && !transaction.voided,
    );
  }

  function complete(account: BamboraSandboxAccount, target: Transaction, amount: number): Response {
    if (target.type !== "PA" || !target.approved) return errorResponse(GATEWAY.cannotBeAdjusted);
    if (target.voided) return errorResponse(GATEWAY.originalVoided);
    if (adjustments(target.id, ["PAC"]).length > 0) return errorResponse(GATEWAY.alreadyCompleted);
    if (amount <= 0) return errorResponse(GATEWAY.zeroOrNegative);
    if (amount > target.amount) return errorResponse(GATEWAY.completionOverReserve);
    if (captureDeclines.has(target.id)) return errorResponse(GATEWAY.decline);
    const result = ledger.capture(account.merchantId, target.root, amount);
    if (!result.ok) return errorResponse(GATEWAY.cannotBeAdjusted);
    return Response.json(paymentResponse(adjustment(account, target, "PAC", amount, undefined)));
  }

  function returnPayment(account: BamboraSandboxAccount, target: Transaction, amount: number, orderNumber: string | undefined): Response {
    // A reused order number is refused before the business rules (this sandbox's reading: the
    // uniqueness of order_number is checked for every transaction, 788).
    if (orderNumber && orderNumberTaken(account, orderNumber)) return errorResponse(GATEWAY.duplicateOrderNumber);
    // "{transId} is the purchase or the completion."
    if ((target.type !== "P" && target.type !== "PAC") || !target.approved) return errorResponse(GATEWAY.cannotBeAdjusted);
    if (target.voided) return errorResponse(GATEWAY.originalVoided);
    if (amount <= 0) return errorResponse(GATEWAY.zeroOrNegative);
    const returned = adjustments(target.id, ["R"]).reduce((sum, transaction) => sum + transaction.amount, 0);
    if (amount > target.amount - returned) return errorResponse(GATEWAY.exceedsReturnLimit);
    const result = ledger.refund(account.merchantId, target.root, amount);
    if (!result.ok) return errorResponse(GATEWAY.cannotBeAdjusted);
    return Response.json(paymentResponse(adjustment(account, target, "R", amount, orderNumber)));
  }

  function voidPayment(account: BamboraSandboxAccount, target: Transaction, amount: number, orderNumber: string | undefined): Response {
    if (orderNumber && orderNumberTaken(account, orderNumber)) return errorResponse(GATEWAY.duplicateOrderNumber);
    if (!target.approved || target.voided) return errorResponse(GATEWAY.cannotBeVoided);
    if (amount === 0 && target.amount === 0)
      return errorResponse({ ...GATEWAY.cannotBeVoided, code: 198, message: "Zero value transactions cannot be voided" });
    // "This amount must equal the amount of that transaction, no more or less."
    if (amount !== target.amount) return errorResponse(GATEWAY.amountMismatch);
    // "Voids can only be attempted on the same day as the original transaction. After the end of day
    // (roughly 11:59 PM EST/EDT), void requests will be rejected."
    const day = (date: Date) => localTime(date, "America/New_York").text.slice(0, 10);
    if (day(target.created) !== day(now())) return errorResponse(GATEWAY.voidOnlySameDay);
    if (adjustments(target.id, ["R"]).length > 0) return errorResponse(GATEWAY.voidAfterReturn);
    // The service voids pre-authorizations only; voids of purchases, completions and returns (which
    // reverse money already moved) are not simulated here.
    if (target.type !== "PA") return errorResponse(GATEWAY.cannotBeVoided);
    if (adjustments(target.id, ["PAC"]).length > 0) return errorResponse(GATEWAY.cannotBeVoided);
    const result = ledger.void(account.merchantId, target.root);
    if (!result.ok) return errorResponse(GATEWAY.cannotBeVoided);
    target.voided = true;
    return Response.json(paymentResponse(adjustment(account, target, "VP", amount, orderNumber)));
  }

  function transactionView(transaction: Transaction): Record<string, unknown> {
    const related = [...transactions.values()].filter((other) => other.adjusts === transaction.id);
    return {
      ...paymentResponse(transaction),
      approved: transaction.approved ? 1 : 0,
      id: Number(transaction.id),
      message_id: transaction.messageId,
      total_refunds: related.filter((other) => other.type === "R").reduce((sum, other) => sum + other.amount, 0) / 100,
      total_completions: related.filter((other) => other.type === "PAC").reduce((sum, other) => sum + other.amount, 0) / 100,
      adjusted_by: related.map((other) => ({
        id: Number(other.id),
        type: other.type,
        approval: other.approved ? 1 : 0,
        message: other.message,
        amount: other.amount / 100,
        created: `${localTime(other.created, other.account.timeZone).text}`,
        url: `https://api.na.bambora.com/v1/payments/${other.id}`,
      })),
    };
  }

  /** A SearchRecord (swagger SearchRecord; the example answer of guides/report). */
  function searchRecord(transaction: Transaction, rowId: number): Record<string, unknown> {
    const related = [...transactions.values()].filter((other) => other.adjusts === transaction.id);
    const local = localTime(transaction.created, transaction.account.timeZone);
    return {
      row_id: rowId,
      trn_id: Number(transaction.id),
      trn_date_time: `${local.text}.000${local.offset}`,
      trn_type: transaction.type,
      trn_order_number: transaction.orderNumber,
      trn_payment_method: "CC",
      trn_comments: "",
      trn_masked_card: transaction.card.lastFour,
      trn_amount: moneyString(transaction.amount),
      trn_returns: moneyString(related.filter((other) => other.type === "R").reduce((sum, other) => sum + other.amount, 0)),
      trn_completions: moneyString(related.filter((other) => other.type === "PAC").reduce((sum, other) => sum + other.amount, 0)),
      trn_voided: transaction.voided ? 1 : 0,
      trn_response: transaction.approved ? 1 : 0,
      trn_card_type: transaction.card.type ?? "",
      message_id: transaction.messageId,
      message_text: transaction.message,
      trn_card_owner: transaction.card.name,
      trn_approval_code: transaction.authCode,
      trn_reference: transaction.adjusts ? Number(transaction.adjusts) : 0,
      currency_abbr: transaction.account.currency,
      merchant_id: Number(transaction.account.merchantId),
      authorizing_merchant_id: Number(transaction.account.merchantId),
      ...(transaction.cardOnFile ? { cof_type: transaction.cardOnFile.type } : {}),
    };
  }

  /** The report search: date window in the account's time zone, criteria ANDed (fields 1, 5, 8 and 23 with "=" here). */
  function search(account: BamboraSandboxAccount, json: unknown): Response {
    const parsed = searchSchema.safeParse(json);
    if (!parsed.success) return errorResponse(GATEWAY.missingOrInvalid, issueDetail(parsed.error));
    const query = parsed.data;
    if (query.end_row < query.start_row) return invalid("end_row", "must not be less than start_row");
    const tests: ((transaction: Transaction) => boolean)[] = [];
    for (const [index, criterion] of (query.criteria ?? []).entries()) {
      if (criterion.operator !== "%3D") return invalid(`criteria.${index}.operator`, "this sandbox searches with %3D (=) only");
      const field = SEARCH_FIELDS.get(criterion.field);
      if (!field) return invalid(`criteria.${index}.field`, "this sandbox searches fields 1, 5, 8 and 23");
      tests.push((transaction) => field(transaction) === criterion.value);
    }
    const inWindow = [...transactions.values()]
      .filter((transaction) => transaction.account === account)
      .filter((transaction) => {
        const local = localTime(transaction.created, account.timeZone).text;
        return local >= query.start_date && local <= query.end_date;
      })
      .filter((transaction) => tests.every((test) => test(transaction)))
      .sort((a, b) => Number(a.id) - Number(b.id));
    // "If the difference between start and end rows is greater than 500, only the top 500 records will be retrieved."
    const rows = inWindow.slice(query.start_row - 1, Math.min(query.end_row, query.start_row - 1 + 500));
    return Response.json({ records: rows.map((transaction, index) => searchRecord(transaction, query.start_row + index)) });
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    const adjustmentPath = /^\/v1\/payments\/(\d{1,9})\/(completions|returns|void)$/.exec(path);
    const paymentPath = /^\/v1\/payments\/(\d{1,9})$/.exec(path);
    const known = path === "/v1/payments" || path === "/v1/reports" || adjustmentPath || paymentPath;
    if (!known) return Response.json({ code: 0, category: 3, message: "Not Found", reference: "" }, { status: 404 });
    const method = paymentPath ? "GET" : "POST";
    if (request.method !== method)
      return Response.json({ code: 0, category: 3, message: "Invalid Request Method", reference: "" }, { status: 405 });
    const account = authenticate(request, path === "/v1/reports" ? "reporting" : "payments");
    if (account instanceof Response) return account;
    if (paymentPath) {
      const transaction = own(account, paymentPath[1]!);
      return transaction ? Response.json(transactionView(transaction)) : invalid("transId", "Invalid transaction id");
    }
    if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json"))
      return Response.json({ code: 0, category: 3, message: "Unsupported Media Type", reference: "" }, { status: 415 });
    let json: unknown;
    try {
      json = JSON.parse(await request.text());
    } catch {
      return invalid("body", "the body is not JSON");
    }
    if (path === "/v1/payments") return makePayment(account, json, request.signal);
    if (path === "/v1/reports") return search(account, json);
    const [, id = "", action] = adjustmentPath!;
    const parsed = adjustmentSchema.safeParse(json);
    if (!parsed.success) return errorResponse(GATEWAY.missingOrInvalid, issueDetail(parsed.error));
    const amount = cents(parsed.data.amount);
    if (amount === undefined) return invalid("amount", "a decimal value in dollars with up to two decimal places");
    const target = own(account, id);
    // A transaction id this account does not have (recorded answer: "adjId: Invalid adjustment id").
    if (!target) return invalid("adjId", "Invalid adjustment id");
    switch (action) {
      case "completions":
        return complete(account, target, amount);
      case "returns":
        return returnPayment(account, target, amount, parsed.data.order_number);
      default:
        return voidPayment(account, target, amount, parsed.data.order_number);
    }
  };

  return { handler, ledger };
}
