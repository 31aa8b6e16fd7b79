// An operator records the acquirer's answer to an operation that waits for one (its outcome
// unknown and no look-up settled it, docs/operations.md "Unknown outcomes"): `npm run cli --
// operations settle` and the payment's back-office page (owner, step-up) both call this. One
// transaction records the answer on the operation, brings the payment's totals and status in line
// (or the payout payment's), stores the merchant's notification and the audit entry; the
// notification goes out after the commit. An authorization attempt's consequence (the MIT's result,
// the window's completion or the void of a hold that came too late) is its owner's: the caller runs
// it (lib/cardholder/finish-stuck-payments.ts, finishPaymentOf). Where the acquirer has a look-up,
// the settlement is verified by one more look-up a day later (a contradiction alerts an operator).
import { db, type Tx } from "../db";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { getAccountConnector } from "../routing/accounts/account-connector";
import { RESPONSE_CODES, type LookupKind, type ProcessorResult } from "../acquirers/contract";
import { notifyOperationResult } from "./notify-operation-result";
import { recordAuthorizationAttempt } from "./record-authorization-attempt";
import { recordFollowUpResult } from "./record-follow-up-result";
import { recordPayoutResult, VERIFY_AFTER_MS } from "./settle-unknown-operation";

export class OperationNotAwaitingOperatorError extends Error {
  constructor(operationId: string, detail: string) {
    super(`operation ${operationId} is not waiting for an operator: ${detail}`);
    this.name = "OperationNotAwaitingOperatorError";
  }
}

export interface OperatorSettlement {
  operationId: string;
  /** What the acquirer's own records say: approved (performed) or declined (not performed). */
  outcome: "approved" | "declined";
  /** The acquirer's id of the transaction; required for an approval (later operations refer to it). */
  reference?: string;
  /** Why, in words: what the operator checked (kept in the audit log and on the operation). */
  reason: string;
  /** Who: a back-office user (scoped to their merchant) or the operator CLI. */
  by: { userId: string | null; label: string; merchantId?: string };
  /** Writes the audit entry in the settlement's transaction (the caller's audit log: back office or CLI). */
  audit: (tx: Tx, entry: OperatorAuditEntry) => Promise<void>;
  now?: Date;
}

/** What the audit entry of a settlement records. */
export interface OperatorAuditEntry {
  merchantId: string;
  paymentId: string;
  details: { operationid: string; type: string; outcome: string; reference: string; reason: string; by: string };
}

export interface OperatorSettlementResult {
  operationId: string;
  type: string;
  paymentId: string;
  status: "approved" | "declined";
  notificationId: string | null;
}

export async function settleOperationByOperator({
  operationId,
  outcome,
  reference,
  reason,
  by,
  audit,
  now = new Date(),
}: OperatorSettlement): Promise<OperatorSettlementResult> {
  const trimmedReason = reason.trim();
  if (!trimmedReason) throw new OperationNotAwaitingOperatorError(operationId, "a reason is required");
  const operation = await db().operation.findUnique({
    where: { id: operationId },
    select: {
      type: true,
      status: true,
      operatorAlertedAt: true,
      processor: true,
      acquirerAccountId: true,
      paymentId: true,
      payment: { select: { merchantId: true } },
    },
  });
  // Another merchant's operation does not exist for a back-office user.
  if (!operation || (by.merchantId && operation.payment.merchantId !== by.merchantId)) throw new OperationNotAwaitingOperatorError(operationId, "no such operation");
  if (operation.status !== "pending") throw new OperationNotAwaitingOperatorError(operationId, `it is settled already (${operation.status})`);
  if (!operation.operatorAlertedAt) {
    throw new OperationNotAwaitingOperatorError(operationId, "its outcome is still being looked up at the acquirer (no operator alert)");
  }
  const acquirerReference = reference?.trim() || undefined;
  if (outcome === "approved" && !acquirerReference) {
    throw new OperationNotAwaitingOperatorError(operationId, "an approval needs the acquirer's reference (--reference)");
  }
  const result: ProcessorResult = {
    status: outcome,
    failure: outcome === "declined" ? "declined" : undefined,
    responsecode: outcome === "approved" ? RESPONSE_CODES.approved : RESPONSE_CODES.doNotHonour,
    processorReference: acquirerReference,
    message: `settled by ${by.label}: ${trimmedReason}`,
  };
  const source = `the operator (${by.label})`;
  // Where a look-up exists, it checks the settlement once more later.
  let verify = false;
  try {
    verify = Boolean(
      operation.acquirerAccountId &&
        (await getAccountConnector({ accountId: operation.acquirerAccountId })).lookups[operation.type as LookupKind].lookup,
    );
  } catch {
    verify = false;
  }
  await db().$transaction(async (tx) => {
    const recorded =
      operation.type === "payout"
        ? (await recordPayoutResult({ operationId, result, source, now, tx })) !== false
        : operation.type === "authorize"
          ? await recordAuthorizationAttempt({ operationId, result, source, now, tx })
          : await recordFollowUpResult({ operationId, result, processor: operation.processor, source, now, tx });
    // Settled meanwhile by a look-up (the contradiction, if any, is alerted by the record): nothing is audited as done.
    if (!recorded) throw new OperationNotAwaitingOperatorError(operationId, "it was settled meanwhile");
    await tx.operation.update({
      where: { id: operationId },
      data: { lookupAttempts: 0, nextLookupAt: null, verifyLookupAt: verify ? new Date(now.getTime() + VERIFY_AFTER_MS) : null },
    });
    await audit(tx, {
      merchantId: operation.payment.merchantId,
      paymentId: operation.paymentId,
      details: { operationid: operationId, type: operation.type, outcome, reference: acquirerReference ?? "", reason: trimmedReason, by: by.label },
    });
  });
  const notificationId = operation.type === "authorize" ? null : await notifyOperationResult({ operationId });
  if (notificationId) await dispatchNotification(notificationId);
  return { operationId, type: operation.type, paymentId: operation.paymentId, status: outcome, notificationId };
}

/**
 * After an operator has reconciled a contradiction (the acquirer performed an operation we settled
 * as not performed, or the reverse; docs/operations.md): the alert is closed, both facts and the
 * operator's note stay on the operation, and the audit entry is written in the same transaction.
 */
export async function acknowledgeLateAnswer({
  operationId,
  reason,
  by,
  audit,
}: Pick<OperatorSettlement, "operationId" | "reason" | "by" | "audit">): Promise<void> {
  const trimmedReason = reason.trim();
  if (!trimmedReason) throw new OperationNotAwaitingOperatorError(operationId, "a reason is required");
  const operation = await db().operation.findUnique({
    where: { id: operationId },
    select: { type: true, lateAnswer: true, lateAnswerAt: true, paymentId: true, payment: { select: { merchantId: true } } },
  });
  if (!operation || (by.merchantId && operation.payment.merchantId !== by.merchantId)) throw new OperationNotAwaitingOperatorError(operationId, "no such operation");
  if (!operation.lateAnswerAt) throw new OperationNotAwaitingOperatorError(operationId, "no acquirer answer contradicts it");
  await db().$transaction(async (tx) => {
    await tx.operation.update({
      where: { id: operationId },
      data: { lateAnswerAt: null, lateAnswer: `${operation.lateAnswer ?? ""}; reconciled by ${by.label}: ${trimmedReason}` },
    });
    await audit(tx, {
      merchantId: operation.payment.merchantId,
      paymentId: operation.paymentId,
      details: { operationid: operationId, type: operation.type, outcome: "contradiction reconciled", reference: "", reason: trimmedReason, by: by.label },
    });
  });
}

/** Operations waiting for an operator (and settled ones an acquirer later contradicted), oldest first. */
export async function listOperatorCases({ merchantId, limit = 100 }: { merchantId?: string; limit?: number } = {}) {
  return db().operation.findMany({
    where: {
      ...(merchantId ? { payment: { merchantId } } : {}),
      OR: [{ status: "pending", operatorAlertedAt: { not: null } }, { lateAnswerAt: { not: null } }],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    select: {
      id: true,
      type: true,
      status: true,
      amount: true,
      currency: true,
      processor: true,
      paymentId: true,
      responseId: true,
      operatorAlertedAt: true,
      outcomeUnknownSince: true,
      errorMessage: true,
      lateAnswer: true,
      lateAnswerAt: true,
      payment: { select: { merchantId: true } },
    },
  });
}
