// The Settlements page's list: the merchant's settlements of the mode shown, newest period first,
// optionally of one acquirer account, with the reconciliation's counts and the difference between
// the acquirer's net and its payout plus reserve (0: the figures add up; null: no payout yet).
import { db } from "../../db";
import { calendarDay } from "../../disputes/dispute-dates";
import type { Mode } from "../../mode";

export const SETTLEMENT_PAGE_SIZE = 100;

export async function listSettlements({ merchantId, mode, accountId }: { merchantId: string; mode: Mode; accountId?: string }) {
  const rows = await db().settlement.findMany({
    where: { merchantId, mode, ...(accountId ? { acquirerAccountId: accountId } : {}) },
    orderBy: [{ periodEnd: "desc" }, { id: "desc" }],
    take: SETTLEMENT_PAGE_SIZE,
    select: {
      id: true,
      processor: true,
      acquirerSettlementId: true,
      settled: true,
      currency: true,
      periodStart: true,
      periodEnd: true,
      payoutAmount: true,
      payoutDate: true,
      payoutReference: true,
      payoutCancelledOn: true,
      reserveAmount: true,
      net: true,
      fees: true,
      matchedLines: true,
      mismatchedLines: true,
      unknownLines: true,
      payoutDifference: true,
      overdueOperationIds: true,
      reconciledAt: true,
      acquirerAccount: { select: { id: true, name: true } },
    },
  });
  return rows.map(({ periodStart, periodEnd, payoutDate, payoutCancelledOn, overdueOperationIds, ...row }) => ({
    ...row,
    periodStart: calendarDay(periodStart),
    periodEnd: calendarDay(periodEnd),
    payoutDate: payoutDate ? calendarDay(payoutDate) : null,
    payoutCancelledOn: payoutCancelledOn ? calendarDay(payoutCancelledOn) : null,
    overdueOperations: overdueOperationIds.length,
  }));
}

export type SettlementListRow = Awaited<ReturnType<typeof listSettlements>>[number];
