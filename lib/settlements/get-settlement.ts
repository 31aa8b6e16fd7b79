// One settlement of a merchant with its lines and reconciliation, for the back office's Settlements
// page and its CSV export: only the merchant's own; money in minor units, fees per kind as bigints.
import { db } from "../db";
import { invalidParameter } from "../errors";
import { calendarDay } from "../disputes/dispute-dates";

export async function getSettlement({ merchantId, settlementId }: { merchantId: string; settlementId: string }) {
  const row = await db().settlement.findFirst({
    where: { id: settlementId, merchantId },
    include: {
      lines: {
        orderBy: [{ result: "desc" }, { processedAt: "asc" }],
        select: {
          transactionId: true,
          type: true,
          reference: true,
          amount: true,
          currency: true,
          processedAt: true,
          settledGross: true,
          settledFees: true,
          settledNet: true,
          settledCurrency: true,
          operationId: true,
          matchedBy: true,
          result: true,
          operation: { select: { paymentId: true } },
        },
      },
    },
  });
  if (!row) throw invalidParameter("settlement", "no such settlement");
  const { lines, feesByKind, periodStart, periodEnd, payoutDate, ...settlement } = row;
  return {
    ...settlement,
    periodStart: calendarDay(periodStart),
    periodEnd: calendarDay(periodEnd),
    payoutDate: payoutDate ? calendarDay(payoutDate) : null,
    feesByKind: Object.fromEntries(Object.entries(feesByKind as Record<string, string>).map(([kind, value]) => [kind, BigInt(value)])),
    lines: lines.map(({ operation, result, ...line }) => ({ ...line, result: result.replace("_", "-"), paymentId: operation?.paymentId ?? null })),
  };
}
