// What a payment has left to capture, refund or void, from its operations: approved ones count,
// and pending ones count as reserved so that concurrent requests cannot exceed the limits. A
// declined or failed operation releases its reservation simply by no longer being pending.
import type { Tx } from "../db";

export interface OperationTotals {
  /** Approved plus pending captures. */
  capturedOrReserved: bigint;
  capturedApproved: bigint;
  /** Approved plus pending refunds. */
  refundedOrReserved: bigint;
  refundedApproved: bigint;
  /** An approved or pending void exists. */
  voidedOrVoiding: boolean;
  pendingCaptures: number;
}

export async function operationTotals(tx: Tx, paymentId: string): Promise<OperationTotals> {
  const rows = await tx.operation.groupBy({
    by: ["type", "status"],
    where: { paymentId, type: { in: ["capture", "refund", "void"] }, status: { in: ["pending", "approved"] } },
    _sum: { amount: true },
    _count: { _all: true },
  });
  const sum = (type: string, statuses: string[]) =>
    rows.filter((row) => row.type === type && statuses.includes(row.status)).reduce((total, row) => total + (row._sum.amount ?? 0n), 0n);
  return {
    capturedOrReserved: sum("capture", ["pending", "approved"]),
    capturedApproved: sum("capture", ["approved"]),
    refundedOrReserved: sum("refund", ["pending", "approved"]),
    refundedApproved: sum("refund", ["approved"]),
    voidedOrVoiding: rows.some((row) => row.type === "void"),
    pendingCaptures: rows
      .filter((row) => row.type === "capture" && row.status === "pending")
      .reduce((total, row) => total + row._count._all, 0),
  };
}
