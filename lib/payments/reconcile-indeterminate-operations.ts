// The reconciliation round (lib/jobs/reconcile-indeterminate-operations.ts runs it every minute):
// every capture, refund, void and payout whose outcome is unknown is looked up at its acquirer and
// settled (lib/payments/settle-unknown-operation.ts); a settled one is notified to the merchant
// with the responseid it was accepted with. Operations already left for an operator are not looked
// up again by the round; the operator settles them.
import { db } from "../db";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { notifyOperationResult } from "./notify-operation-result";
import { settleUnknownOperation, type SettleResult } from "./settle-unknown-operation";

export interface ReconcileIndeterminateOperationsOptions {
  /** Only operations unknown for at least this long (default 30 s: the acquirer may still be working). */
  olderThanMs?: number;
  limit?: number;
  maxLookups?: number;
  /** Only these operations (the job settles one per step). */
  only?: string[];
  now?: Date;
}

export interface ReconciledOperation {
  operationId: string;
  result: SettleResult;
  notificationId: string | null;
}

/** Pending operations whose outcome has been unknown for `olderThanMs`, not yet left for an operator. */
export async function findDueIndeterminateOperations({
  olderThanMs = 30_000,
  limit = 100,
  only,
  now = new Date(),
}: Pick<ReconcileIndeterminateOperationsOptions, "olderThanMs" | "limit" | "only" | "now"> = {}) {
  return db().operation.findMany({
    where: {
      ...(only ? { id: { in: only } } : {}),
      status: "pending",
      type: { in: ["capture", "refund", "void", "payout"] },
      outcomeUnknownSince: { lte: new Date(now.getTime() - olderThanMs) },
      operatorAlertedAt: null,
    },
    orderBy: { outcomeUnknownSince: "asc" },
    take: limit,
    select: { id: true, type: true, notificationUrl: true },
  });
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
    const result = await settleUnknownOperation({ operationId: operation.id, maxLookups, now });
    let notificationId: string | null = null;
    // A payout is notified only when its request named an address (as when it was answered at once).
    const notify = operation.type !== "payout" || operation.notificationUrl !== null;
    if (notify && (result === "approved" || result === "declined" || result === "failed")) {
      notificationId = await notifyOperationResult({ operationId: operation.id });
      if (notificationId) await dispatchNotification(notificationId);
    }
    reconciled.push({ operationId: operation.id, result, notificationId });
  }
  return reconciled;
}
