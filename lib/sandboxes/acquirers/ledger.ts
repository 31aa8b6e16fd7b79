// The state an acquirer sandbox keeps: authorizations with their captures, refunds and void, and
// payouts. Amount rules as the acquirers document them: several partial captures up to the
// authorized amount, several partial refunds up to the captured amount (a refund does not free
// capturable amount), a void only while nothing is captured, and each at most once once final.
import { randomBytes, randomUUID } from "node:crypto";

export interface SandboxTransaction {
  id: string;
  kind: "authorization" | "payout";
  amount: number;
  currency: string;
  approved: boolean;
  authorizationCode?: string;
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
  kind: "capture" | "refund" | "void";
  amount: number;
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
  | "invalid_amount"
  | "currency_mismatch";

/** What the acquirer did with one request of ours, found again by our reference (a look-up after a lost answer). */
export interface RequestOutcome {
  kind: "authorization" | "payout" | "capture" | "refund" | "void";
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
  readonly #transactions = new Map<string, SandboxTransaction>();
  readonly #operations = new Map<string, SandboxOperation>();
  readonly #byRequestId = new Map<string, SandboxTransaction>();
  /** Follow-ups and payouts by the caller's reference of the request (Idempotency-Key, Finaro a1). */
  readonly #requests = new Map<string, RequestOutcome>();
  /** Request ids already answered, with the answer, so a repeated request gets the same answer. */
  readonly #answered = new Map<string, unknown>();

  record(input: {
    kind: SandboxTransaction["kind"];
    amount: number;
    currency: string;
    approved: boolean;
    id?: string;
    /** The caller's own reference (Finaro a1, Bambora order id), for look-ups after a time-out. */
    requestId?: string;
  }): SandboxTransaction {
    const transaction: SandboxTransaction = {
      id: input.id ?? randomUUID(),
      kind: input.kind,
      amount: input.amount,
      currency: input.currency,
      approved: input.approved,
      authorizationCode: input.approved ? newAuthorizationCode() : undefined,
      capturedAmount: 0,
      refundedAmount: 0,
      voided: false,
      children: [],
      createdAt: new Date(),
    };
    this.#transactions.set(transaction.id, transaction);
    if (input.requestId) this.#byRequestId.set(input.requestId, transaction);
    return transaction;
  }

  /** The transaction the caller created with this reference of its own. */
  findByRequestId(requestId: string): SandboxTransaction | undefined {
    return this.#byRequestId.get(requestId);
  }

  /** Remembers what a request of the caller's did, for a later look-up by its reference. Kept once: a repeat changes nothing. */
  noteRequest(requestId: string | undefined | null, outcome: RequestOutcome): void {
    if (requestId && !this.#requests.has(requestId)) this.#requests.set(requestId, outcome);
  }

  /** The outcome of the caller's request with this reference: a noted follow-up or payout, else an authorization. */
  lookupRequest(requestId: string): RequestOutcome | undefined {
    const noted = this.#requests.get(requestId);
    if (noted) return noted;
    const transaction = this.#byRequestId.get(requestId);
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

  get(id: string): SandboxTransaction | undefined {
    return this.#transactions.get(id);
  }

  /** The authorization an id names: itself, or the parent of a capture/refund/void id. */
  resolve(id: string): SandboxTransaction | undefined {
    const direct = this.#transactions.get(id);
    if (direct) return direct;
    const operation = this.#operations.get(id);
    return operation ? this.#transactions.get(operation.parentId) : undefined;
  }

  remember<T>(requestId: string, answer: T): T {
    this.#answered.set(requestId, answer);
    return answer;
  }

  answered<T>(requestId: string): T | undefined {
    return this.#answered.get(requestId) as T | undefined;
  }

  #child(transaction: SandboxTransaction, kind: SandboxOperation["kind"], amount: number): SandboxOperation {
    const operation: SandboxOperation = { id: randomUUID(), parentId: transaction.id, kind, amount, createdAt: new Date() };
    transaction.children.push(operation);
    this.#operations.set(operation.id, operation);
    return operation;
  }

  #usable(id: string, currency?: string): SandboxTransaction | LedgerError {
    const transaction = this.resolve(id);
    if (!transaction || transaction.kind !== "authorization") return "not_found";
    if (!transaction.approved) return "not_approved";
    if (currency !== undefined && currency !== transaction.currency) return "currency_mismatch";
    if (transaction.voided) return "voided";
    return transaction;
  }

  /** `amount` undefined: the remaining authorized amount. */
  capture(id: string, amount: number | undefined, currency?: string): LedgerResult {
    const transaction = this.#usable(id, currency);
    if (typeof transaction === "string") return { ok: false, error: transaction };
    const remaining = transaction.amount - transaction.capturedAmount;
    const value = amount ?? remaining;
    if (!Number.isInteger(value) || value <= 0) return { ok: false, error: remaining === 0 ? "already_captured" : "invalid_amount" };
    if (value > remaining) return { ok: false, error: "amount_exceeds_authorized" };
    transaction.capturedAmount += value;
    return { ok: true, operation: this.#child(transaction, "capture", value), transaction };
  }

  refund(id: string, amount: number | undefined, currency?: string): LedgerResult {
    const transaction = this.resolve(id);
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

  void(id: string): LedgerResult {
    const transaction = this.#usable(id);
    if (typeof transaction === "string") return { ok: false, error: transaction };
    if (transaction.capturedAmount > 0) return { ok: false, error: "already_captured" };
    transaction.voided = true;
    return { ok: true, operation: this.#child(transaction, "void", transaction.amount), transaction };
  }
}
