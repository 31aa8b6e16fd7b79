// The state an acquirer sandbox keeps: authorizations with their captures, refunds and void, and
// payouts. Amount rules as the acquirers document them: several partial captures up to the
// authorized amount, several partial refunds up to the captured amount (a refund does not free
// capturable amount), a void only while nothing is captured, and each at most once once final.
// Every transaction belongs to the merchant account whose credentials made it, and only that account
// can see it, capture, refund or void it, or find it by reference, as at the real acquirers ("an
// authorization made on one merchant account cannot be captured on another", Clearhaus accounts_and_keys).
import type { FollowUpType } from "../../payments/follow-ups/kinds";
import { randomBytes, randomUUID } from "node:crypto";

export interface SandboxTransaction {
  id: string;
  /** The acquirer's own id of the merchant account that made it (Finaro MID, Clearhaus merchant_id, Bambora merchant number). */
  account: string;
  kind: "authorization" | "payout";
  amount: number;
  currency: string;
  approved: boolean;
  /**
   * Not approved, yet holding the cardholder's funds until voided: Clearhaus allows voids on
   * 50000 authorizations ([CH] changes.md).
   */
  holds: boolean;
  authorizationCode?: string;
  /** The caller's own reference of the request (Clearhaus `reference`): what a reporting sandbox shows with it. */
  requestId?: string;
  /** A hash of the card (never the number): links a stored-credential series to its card. */
  cardKey?: string;
  /** Clearhaus: the series this authorization belongs to; `first` on the first-in-series. */
  series?: { type: "recurring" | "unscheduled"; first: boolean };
  /**
   * The stored-credential fields the request carried, under the acquirer's own names (Clearhaus
   * `series[previous][id]`, Finaro `a9`, `g6`): what a test reads to see which payment a MIT named.
   */
  storedCredential?: Record<string, string>;
  capturedAmount: number;
  refundedAmount: number;
  voided: boolean;
  /** Child operations (captures, refunds, void) by their ids. */
  children: SandboxOperation[];
  createdAt: Date;
}

export interface SandboxOperation {
  id: string;
  parentId: string;
  /** The account whose credentials the request carried (always the parent's: another account is refused). */
  account: string;
  /** Our follow-up kinds are the acquirers' operations on an authorization. */
  kind: FollowUpType;
  amount: number;
  /** Captures: what refunds that named this capture took back (Finaro refunds name a capture). */
  refundedAmount: number;
  createdAt: Date;
}

export type LedgerError =
  | "not_found"
  | "not_approved"
  | "voided"
  | "already_captured"
  | "amount_exceeds_authorized"
  | "amount_exceeds_captured"
  | "nothing_captured"
  | "not_a_capture"
  | "invalid_amount"
  | "currency_mismatch";

/** What the acquirer did with one request of ours, found again by our reference (a look-up after a lost answer). */
export interface RequestOutcome {
  kind: "authorization" | "payout" | FollowUpType;
  /** The acquirer's id of what it created (the transaction, or the capture/refund/void). */
  id: string;
  approved: boolean;
  /** ISO 8583 style code of the answer ("00" approved). */
  responseCode: string;
  authorizationCode?: string;
  amount?: number;
}

export type LedgerResult = { ok: true; operation: SandboxOperation; transaction: SandboxTransaction } | { ok: false; error: LedgerError };

export function newAuthorizationCode(): string {
  // 6 digits, never all zeros.
  return String(100000 + (randomBytes(4).readUInt32BE() % 900000));
}

export class SandboxLedger {
  /** How this acquirer's ids look (Clearhaus: UUIDs; Finaro: 32-character z1 values). */
  readonly #newId: () => string;
  constructor({ newId = () => randomUUID() }: { newId?: () => string } = {}) {
    this.#newId = newId;
  }

  readonly #transactions = new Map<string, SandboxTransaction>();
  readonly #operations = new Map<string, SandboxOperation>();
  readonly #byRequestId = new Map<string, SandboxTransaction>();
  /** Follow-ups and payouts by the caller's reference of the request (Idempotency-Key, Finaro a1). */
  readonly #requests = new Map<string, RequestOutcome>();
  /** Request ids already answered, with the answer, so a repeated request gets the same answer. */
  readonly #answered = new Map<string, unknown>();

  record(input: {
    account: string;
    kind: SandboxTransaction["kind"];
    amount: number;
    currency: string;
    approved: boolean;
    holds?: boolean;
    id?: string;
    /** The caller's own reference (Finaro a1, Bambora order id), for look-ups after a time-out. */
    requestId?: string;
    cardKey?: string;
    series?: SandboxTransaction["series"];
    storedCredential?: SandboxTransaction["storedCredential"];
    /** Finaro: the answer's z4 (the approval code), else one is made up. */
    authorizationCode?: string;
  }): SandboxTransaction {
    const transaction: SandboxTransaction = {
      id: input.id ?? this.#newId(),
      account: input.account,
      kind: input.kind,
      amount: input.amount,
      currency: input.currency,
      approved: input.approved,
      holds: input.holds ?? false,
      authorizationCode: input.approved ? (input.authorizationCode ?? newAuthorizationCode()) : undefined,
      requestId: input.requestId,
      cardKey: input.cardKey,
      series: input.series,
      storedCredential: input.storedCredential,
      capturedAmount: 0,
      refundedAmount: 0,
      voided: false,
      children: [],
      createdAt: new Date(),
    };
    this.#transactions.set(transaction.id, transaction);
    if (input.requestId) this.#byRequestId.set(scoped(input.account, input.requestId), transaction);
    return transaction;
  }

  /** The transaction `account` created with this reference of its own. */
  findByRequestId(account: string, requestId: string): SandboxTransaction | undefined {
    return this.#byRequestId.get(scoped(account, requestId));
  }

  /** Remembers what a request of `account` did, for a later look-up by its reference. Kept once: a repeat changes nothing. */
  noteRequest(account: string, requestId: string | undefined | null, outcome: RequestOutcome): void {
    if (requestId && !this.#requests.has(scoped(account, requestId))) this.#requests.set(scoped(account, requestId), outcome);
  }

  /** The outcome of `account`'s request with this reference: a noted follow-up or payout, else an authorization. */
  lookupRequest(account: string, requestId: string): RequestOutcome | undefined {
    const noted = this.#requests.get(scoped(account, requestId));
    if (noted) return noted;
    const transaction = this.#byRequestId.get(scoped(account, requestId));
    if (!transaction) return undefined;
    return {
      kind: transaction.kind,
      id: transaction.id,
      approved: transaction.approved,
      responseCode: transaction.approved ? "00" : "05",
      authorizationCode: transaction.authorizationCode,
      amount: transaction.amount,
    };
  }

  /** Every transaction, for tests that compare the service's books with the acquirer's. */
  transactions(): SandboxTransaction[] {
    return [...this.#transactions.values()];
  }

  /** Any account's transaction with this id: for tests that compare the service's books with the acquirer's. */
  byId(id: string): SandboxTransaction | undefined {
    return this.#transactions.get(id);
  }

  /** `account`'s transaction with this id; another account's is not found, as at the acquirer. */
  get(account: string, id: string): SandboxTransaction | undefined {
    const transaction = this.#transactions.get(id);
    return transaction?.account === account ? transaction : undefined;
  }

  /** The authorization an id names for `account`: itself, or the parent of a capture/refund/void id. */
  resolve(account: string, id: string): SandboxTransaction | undefined {
    const operation = this.#operations.get(id);
    const transaction = this.#transactions.get(id) ?? (operation ? this.#transactions.get(operation.parentId) : undefined);
    return transaction?.account === account ? transaction : undefined;
  }

  remember<T>(account: string, requestId: string, answer: T): T {
    this.#answered.set(scoped(account, requestId), answer);
    return answer;
  }

  answered<T>(account: string, requestId: string): T | undefined {
    return this.#answered.get(scoped(account, requestId)) as T | undefined;
  }

  #child(transaction: SandboxTransaction, kind: SandboxOperation["kind"], amount: number): SandboxOperation {
    const operation: SandboxOperation = {
      id: this.#newId(),
      parentId: transaction.id,
      account: transaction.account,
      kind,
      amount,
      refundedAmount: 0,
      createdAt: new Date(),
    };
    transaction.children.push(operation);
    this.#operations.set(operation.id, operation);
    return operation;
  }

  /** A capture of `account` by its id. */
  captureOperation(account: string, id: string): SandboxOperation | undefined {
    const operation = this.#operations.get(id);
    return operation?.kind === "capture" && operation.account === account ? operation : undefined;
  }

  #usable(account: string, id: string, currency?: string, { held = false } = {}): SandboxTransaction | LedgerError {
    const transaction = this.resolve(account, id);
    if (!transaction || transaction.kind !== "authorization") return "not_found";
    if (!transaction.approved && !(held && transaction.holds)) return "not_approved";
    if (currency !== undefined && currency !== transaction.currency) return "currency_mismatch";
    if (transaction.voided) return "voided";
    return transaction;
  }

  /** `amount` undefined: the remaining authorized amount. */
  capture(account: string, id: string, amount: number | undefined, currency?: string): LedgerResult {
    const transaction = this.#usable(account, id, currency);
    if (typeof transaction === "string") return { ok: false, error: transaction };
    const remaining = transaction.amount - transaction.capturedAmount;
    const value = amount ?? remaining;
    if (!Number.isInteger(value) || value <= 0) return { ok: false, error: remaining === 0 ? "already_captured" : "invalid_amount" };
    if (value > remaining) return { ok: false, error: "amount_exceeds_authorized" };
    transaction.capturedAmount += value;
    return { ok: true, operation: this.#child(transaction, "capture", value), transaction };
  }

  refund(account: string, id: string, amount: number | undefined, currency?: string): LedgerResult {
    const transaction = this.resolve(account, id);
    if (!transaction || transaction.kind !== "authorization") return { ok: false, error: "not_found" };
    if (currency !== undefined && currency !== transaction.currency) return { ok: false, error: "currency_mismatch" };
    if (transaction.capturedAmount === 0) return { ok: false, error: "nothing_captured" };
    const remaining = transaction.capturedAmount - transaction.refundedAmount;
    const value = amount ?? remaining;
    if (!Number.isInteger(value) || value <= 0) return { ok: false, error: "invalid_amount" };
    if (value > remaining) return { ok: false, error: "amount_exceeds_captured" };
    transaction.refundedAmount += value;
    return { ok: true, operation: this.#child(transaction, "refund", value), transaction };
  }

  /**
   * A refund that names one capture (Finaro: g2/g3/g4 of the capture): up to what that capture
   * still holds, and what the authorization as a whole still holds.
   */
  refundCapture(account: string, captureId: string, amount: number | undefined, currency?: string): LedgerResult {
    const capture = this.captureOperation(account, captureId);
    if (!capture) return { ok: false, error: "not_a_capture" };
    const transaction = this.#transactions.get(capture.parentId)!;
    if (currency !== undefined && currency !== transaction.currency) return { ok: false, error: "currency_mismatch" };
    const remaining = Math.min(capture.amount - capture.refundedAmount, transaction.capturedAmount - transaction.refundedAmount);
    const value = amount ?? remaining;
    if (!Number.isInteger(value) || value <= 0) return { ok: false, error: "invalid_amount" };
    if (value > remaining) return { ok: false, error: "amount_exceeds_captured" };
    capture.refundedAmount += value;
    transaction.refundedAmount += value;
    return { ok: true, operation: this.#child(transaction, "refund", value), transaction };
  }

  void(account: string, id: string): LedgerResult {
    const transaction = this.#usable(account, id, undefined, { held: true });
    if (typeof transaction === "string") return { ok: false, error: transaction };
    if (transaction.capturedAmount > 0) return { ok: false, error: "already_captured" };
    transaction.voided = true;
    return { ok: true, operation: this.#child(transaction, "void", transaction.amount), transaction };
  }
}

/** Keys of per-account maps: one account's references never meet another's. */
function scoped(account: string, key: string): string {
  return `${account}\n${key}`;
}

/** The request's fields among `names` that it carried. */
export function pick(fields: Record<string, string | undefined>, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (fields[name] === undefined ? [] : [[name, fields[name]!]])));
}
