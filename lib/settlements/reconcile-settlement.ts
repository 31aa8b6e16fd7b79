// Reconciles one imported settlement with our books (docs/decisions/0197-settlement-line-matching.md):
// each line is matched to one of our operations on the settlement's account, by the acquirer's
// transaction id (Operation.processorReference) first, then by its merchant reference as the
// module's connector sent it (docs/decisions/0208-settlement-lines-matched-by-the-reference-the-
// connector-sends.md: our id or its first characters, on the line's operation or on its payment's
// first), then by the same amount and currency within MATCH_WINDOW_MS of the acquirer's processing
// time when exactly one operation not yet on any line qualifies. A matched line whose amount or
// currency differs from the operation's is an amount mismatch; a line with no operation is
// unknown. The settlement keeps the counts, net - (payout + reserve), and our captures and refunds
// overdue for settlement. All of it is written in one transaction; running it again gives the same
// result (a line keeps the operation it was matched to). New exceptions alert an operator.
import { db, type Tx } from "../db";
import type { SettlementLineReference } from "../acquirers/contract";
import type { OperationType, SettlementLineResult } from "../generated/prisma/enums";
import { log } from "../observability/logger";
import { LINE_OPERATION_TYPES, type SettlementLineType } from "./line-types";
import { listOverdueOperations } from "./list-overdue-operations";
import { referenceSearchPrefix } from "./reference-rule";

/** How far our operation's completion may be from the acquirer's processing time for a match by amount. */
export const MATCH_WINDOW_MS = 60 * 60_000;


export interface SettlementReconciliation {
  matched: number;
  mismatched: number;
  unknown: number;
  /** net - (payout + reserve): 0 when the acquirer's figures add up; null without a payout. */
  payoutDifference: bigint | null;
  overdueOperationIds: string[];
  /** Fees by the acquirer's kind, minor units. */
  feesByKind: Record<string, bigint>;
}

type Candidate = { id: string; type: OperationType; amount: bigint; currency: string };
const CANDIDATE = { id: true, type: true, amount: true, currency: true } as const;
type Line = { id: string; transactionId: string; type: string; reference: string | null; amount: bigint; currency: string; processedAt: Date; operationId: string | null };

/**
 * The operation a line's reference names: the one operation of the account the connector would
 * have sent that reference with and, where the module sends one only on a payment's first operation,
 * that payment's operation of the line's type. Nothing when no operation or more than one qualifies.
 */
async function matchByReference(
  tx: Tx,
  accountId: string,
  line: Line,
  types: readonly OperationType[],
  rule: SettlementLineReference,
  taken: Set<string>,
): Promise<Candidate | null> {
  const prefix = line.reference === null ? undefined : referenceSearchPrefix(line.reference);
  if (!prefix) return null;
  const named = (
    await tx.operation.findMany({ where: { acquirerAccountId: accountId, id: { startsWith: prefix } }, select: { ...CANDIDATE, paymentId: true }, take: 10 })
  ).filter((operation) => rule.of(operation.id) === line.reference);
  if (named.length !== 1) return null;
  const { paymentId, ...first } = named[0]!;
  if (rule.sentOn === "every-operation" || types.includes(first.type)) return first;
  // A capture, refund or void the acquirer reports with its authorization's reference: the
  // payment's operation of that type not yet on another line; of several, the one kept before, or
  // the one of the line's amount when exactly one has it.
  const siblings = await tx.operation.findMany({
    where: {
      acquirerAccountId: accountId,
      paymentId,
      type: { in: [...types] },
      status: { in: ["approved", "pending"] },
      OR: [{ settlementLines: { none: {} } }, ...(line.operationId ? [{ id: line.operationId }] : [])],
    },
    select: CANDIDATE,
    orderBy: { createdAt: "asc" },
  });
  const free = siblings.filter((operation) => !taken.has(operation.id));
  const kept = free.find((operation) => operation.id === line.operationId);
  if (kept) return kept;
  if (free.length === 1) return free[0]!;
  const amount = line.amount < 0n ? -line.amount : line.amount;
  const sameAmount = free.filter((operation) => operation.amount === amount && operation.currency === line.currency);
  return sameAmount.length === 1 ? sameAmount[0]! : null;
}

async function matchLine(
  tx: Tx,
  accountId: string,
  line: Line,
  rule: SettlementLineReference,
  taken: Set<string>,
): Promise<{ operation: Candidate; by: string } | null> {
  const types = LINE_OPERATION_TYPES[line.type as SettlementLineType] ?? [];
  const byId = await tx.operation.findMany({ where: { acquirerAccountId: accountId, processorReference: line.transactionId }, select: CANDIDATE, orderBy: { createdAt: "asc" } });
  // Some acquirers keep one id for an authorization and its capture: the line's type decides.
  const idMatch = byId.find((operation) => types.includes(operation.type)) ?? byId[0];
  if (idMatch) return { operation: idMatch, by: "transaction-id" };
  const byReference = await matchByReference(tx, accountId, line, types, rule, taken);
  if (byReference) return { operation: byReference, by: "reference" };
  // A line matched by amount before keeps its operation (a re-run must not move it to another).
  if (line.operationId) {
    const kept = await tx.operation.findUnique({ where: { id: line.operationId }, select: CANDIDATE });
    if (kept) return { operation: kept, by: "amount-and-time" };
  }
  const amount = line.amount < 0n ? -line.amount : line.amount;
  const candidates = await tx.operation.findMany({
    where: {
      acquirerAccountId: accountId,
      status: "approved",
      type: { in: [...types] },
      amount,
      currency: line.currency,
      completedAt: { gte: new Date(line.processedAt.getTime() - MATCH_WINDOW_MS), lte: new Date(line.processedAt.getTime() + MATCH_WINDOW_MS) },
      settlementLines: { none: {} },
    },
    select: CANDIDATE,
    take: 2 + taken.size,
  });
  const free = candidates.filter((operation) => !taken.has(operation.id));
  // Two candidates or more: ambiguous, left unknown for a person rather than guessed.
  return free.length === 1 ? { operation: free[0]!, by: "amount-and-time" } : null;
}

export async function reconcileSettlement({
  settlementId,
  lineReference,
  now = new Date(),
}: {
  settlementId: string;
  /** What the lines' `reference` is: the account's reporting module's (AcquirerReporting.lineReference). */
  lineReference: SettlementLineReference;
  now?: Date;
}): Promise<SettlementReconciliation> {
  const settlement = await db().settlement.findUniqueOrThrow({
    where: { id: settlementId },
    select: { acquirerAccountId: true, acquirerSettlementId: true, net: true, payoutAmount: true, reserveAmount: true, feesByKind: true, mismatchedLines: true, unknownLines: true, payoutDifference: true, reconciledAt: true },
  });
  const accountId = settlement.acquirerAccountId;
  const result = await db().$transaction(async (tx) => {
    const lines = await tx.settlementLine.findMany({
      where: { settlementId },
      select: { id: true, transactionId: true, type: true, reference: true, amount: true, currency: true, processedAt: true, operationId: true },
      orderBy: [{ processedAt: "asc" }, { transactionId: "asc" }],
    });
    const counts: Record<SettlementLineResult, number> = { matched: 0, amount_mismatch: 0, unknown: 0 };
    const taken = new Set<string>();
    for (const line of lines) {
      const match = await matchLine(tx, accountId, line, lineReference, taken);
      const amount = line.amount < 0n ? -line.amount : line.amount;
      const outcome: SettlementLineResult = !match
        ? "unknown"
        : match.operation.amount === amount && match.operation.currency === line.currency
          ? "matched"
          : "amount_mismatch";
      if (match) taken.add(match.operation.id);
      counts[outcome] += 1;
      await tx.settlementLine.update({ where: { id: line.id }, data: { operationId: match?.operation.id ?? null, matchedBy: match?.by ?? null, result: outcome } });
    }
    // After the lines: an operation matched just now is not overdue.
    const overdue = await listOverdueOperations({ accountId, now, tx });
    const payoutDifference = settlement.payoutAmount === null ? null : settlement.net - (settlement.payoutAmount + (settlement.reserveAmount ?? 0n));
    await tx.settlement.update({
      where: { id: settlementId },
      data: {
        matchedLines: counts.matched,
        mismatchedLines: counts.amount_mismatch,
        unknownLines: counts.unknown,
        payoutDifference,
        overdueOperationIds: overdue.ids,
        reconciledAt: now,
      },
    });
    return { matched: counts.matched, mismatched: counts.amount_mismatch, unknown: counts.unknown, payoutDifference, overdueOperationIds: overdue.ids };
  });
  const feesByKind = Object.fromEntries(Object.entries(settlement.feesByKind as Record<string, string>).map(([kind, value]) => [kind, BigInt(value)]));
  // Alert when the exceptions are new or changed, not at every re-run of the same settlement.
  const before = settlement.reconciledAt ? `${settlement.mismatchedLines}/${settlement.unknownLines}/${settlement.payoutDifference}` : "";
  const after = `${result.mismatched}/${result.unknown}/${result.payoutDifference}`;
  const exceptional = result.mismatched > 0 || result.unknown > 0 || (result.payoutDifference !== null && result.payoutDifference !== 0n);
  if (exceptional && before !== after)
    log("reconcile").error(
      { event: "operator.settlement_exceptions", settlementId, accountId, mismatched: result.mismatched, unknown: result.unknown, payoutDifference: result.payoutDifference?.toString() ?? null },
      `operator needed: settlement ${settlement.acquirerSettlementId} of acquirer account ${accountId}: ${result.mismatched} amount mismatches, ` +
        `${result.unknown} transactions unknown to us, net - (payout + reserve) = ${result.payoutDifference ?? "no payout"} (docs/operations.md)`,
    );
  return { ...result, feesByKind };
}
