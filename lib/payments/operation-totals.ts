// What a payment has left to capture, refund or void, from its operations: approved ones count,
// and pending ones count as reserved so that concurrent requests cannot exceed the limits. A
// declined or failed operation releases its reservation simply by no longer being pending.
import type { Tx } from "../db";
import { FOLLOW_UP_TYPES_SQL } from "./follow-ups/kinds";

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

/**
 * Read after the payment's row lock is granted, in a statement of its own (a new snapshot under
 * READ COMMITTED), so that a concurrent request's pending operation committed while this one
 * waited is counted. Raw SQL rather than the model API's groupBy: it runs on every capture, refund
 * and void, and Prisma's query building and result mapping for a groupBy cost a share of the hot
 * path that this one statement does not (docs/performance.md).
 */
export async function operationTotals(tx: Tx, paymentId: string): Promise<OperationTotals> {
  const rows = await tx.$queryRaw<OperationTotalsRow[]>`
    SELECT "type"::text AS "type", "status"::text AS "status", SUM("amount")::bigint AS "sum", COUNT(*)::int AS "count"
    FROM "Operation"
    WHERE "paymentId" = ${paymentId}
      AND "type"::text IN (${FOLLOW_UP_TYPES_SQL}) AND "status"::text IN ('pending', 'approved')
    GROUP BY 1, 2`;
  return totalsFromRows(rows);
}

/** One group of the totals' statement (here, and cps_follow_up_totals's rows in cps_read_follow_up_payment's `totals`). */
export interface OperationTotalsRow {
  type: string;
  status: string;
  sum: bigint | number | string | null;
  count: number;
}

/** The totals from their statement's groups: the one reading of them. */
export function totalsFromRows(rows: OperationTotalsRow[]): OperationTotals {
  const sum = (type: string, statuses: string[]) =>
    rows
      .filter((row) => row.type === type && statuses.includes(row.status))
      .reduce((total, row) => total + BigInt(row.sum ?? 0), 0n);
  return {
    capturedOrReserved: sum("capture", ["pending", "approved"]),
    capturedApproved: sum("capture", ["approved"]),
    refundedOrReserved: sum("refund", ["pending", "approved"]),
    refundedApproved: sum("refund", ["approved"]),
    voidedOrVoiding: rows.some((row) => row.type === "void"),
    pendingCaptures: rows.filter((row) => row.type === "capture" && row.status === "pending").reduce((total, row) => total + Number(row.count), 0),
  };
}
