// The reconciliation round (lib/jobs/reconcile-indeterminate-operations.ts runs it every minute):
// every capture, refund, void and payout whose outcome is unknown is looked up at its acquirer when
// its next look-up is due and settled (lib/payments/settle-unknown-operation.ts); a settled one is
// notified to the merchant with the responseid it was accepted with. Operations left for an
// operator are still looked up, with back-off. Operations settled without the acquirer's answer
// get their verification look-up here too.
import { db } from "../db";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { notifyOperationResult } from "./notify-operation-result";
import { settleUnknownOperation, verifySettledOperation, type SettleResult } from "./settle-unknown-operation";
import { FOLLOW_UP_TYPES } from "./follow-ups/kinds";
import { lookupDue } from "./lookup-due";

export interface ReconcileIndeterminateOperationsOptions {
  /** Only operations whose call ended at least this long ago (default 30 s: a moment for the acquirer's books). */
  olderThanMs?: number;
  limit?: number;
  maxLookups?: number;
  /** Only these operations (the job settles one per step). */
  only?: string[];
  now?: Date;
}

export interface ReconciledOperation {
  operationId: string;
  result: SettleResult | "verified" | "contradicted";
  notificationId: string | null;
}

/**
 * Pending operations whose outcome is unknown and whose next look-up is due, then settled
 * operations due for their verification look-up; oldest first.
 */
export async function findDueIndeterminateOperations({
  olderThanMs = 30_000,
  limit = 100,
  only,
  now = new Date(),
}: Pick<ReconcileIndeterminateOperationsOptions, "olderThanMs" | "limit" | "only" | "now"> = {}) {
  const before = new Date(now.getTime() - olderThanMs);
  const due = await db().operation.findMany({
    where: {
      ...(only ? { id: { in: only } } : {}),
      status: "pending",
      type: { in: [...FOLLOW_UP_TYPES, "payout"] },
      outcomeUnknownSince: { not: null },
      // Counted from the end of the call; a call without a recorded end is one whose process died
      // (or is still in flight: settleUnknownOperation checks its lease and leaves it alone).
      OR: [{ callEndedAt: { lte: before } }, { callEndedAt: null, outcomeUnknownSince: { lte: before } }],
      AND: [lookupDue(now)],
    },
    orderBy: [{ outcomeUnknownSince: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, notificationUrl: true },
  });
  const verify = await db().operation.findMany({
    where: { ...(only ? { id: { in: only } } : {}), verifyLookupAt: { lte: now }, status: { not: "pending" } },
    orderBy: [{ verifyLookupAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, notificationUrl: true },
  });
  return [...due, ...verify];
}

export async function reconcileIndeterminateOperations({
  olderThanMs = 30_000,
  limit = 100,
  maxLookups,
  only,
  now = new Date(),
}: ReconcileIndeterminateOperationsOptions = {}): Promise<ReconciledOperation[]> {
  const due = await findDueIndeterminateOperations({ olderThanMs, limit, only, now });
  const reconciled: ReconciledOperation[] = [];
  for (const operation of due) {
    const pending = await db().operation.findUnique({ where: { id: operation.id }, select: { status: true } });
    if (pending?.status !== "pending") {
      const contradicted = await verifySettledOperation({ operationId: operation.id, now });
      reconciled.push({ operationId: operation.id, result: contradicted ? "contradicted" : "verified", notificationId: null });
      continue;
    }
    const result = await settleUnknownOperation({ operationId: operation.id, maxLookups, now });
    let notificationId: string | null = null;
    // The settled result's notification row was written with it, to the address stored when the
    // operation was accepted; an operation without one (an instant capture settled in its
    // goPay()) is reported by its window's completion instead.
    if (operation.notificationUrl && (result === "approved" || result === "declined" || result === "failed")) {
      notificationId = await notifyOperationResult({ operationId: operation.id });
      if (notificationId) await dispatchNotification(notificationId);
    }
    reconciled.push({ operationId: operation.id, result, notificationId });
  }
  return reconciled;
}
