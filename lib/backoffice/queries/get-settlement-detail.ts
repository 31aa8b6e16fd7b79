// One settlement of the merchant, of the mode shown, for its page: getSettlement's figures, fees per
// kind and lines (each with its result and matched payment), the account it paid, the order numbers
// of the matched payments, and the exceptions: amount mismatches, transactions unknown to us, and
// our captures and refunds not settled after the expected delay (docs/decisions/0198).
import { NotFoundError } from "../../auth/actor";
import { db } from "../../db";
import { getSettlement } from "../../settlements/get-settlement";
import type { Mode } from "../../mode";

/** The page shows this many lines (exceptions first); the CSV export has them all. */
export const SETTLEMENT_LINES_SHOWN = 500;

export async function getSettlementDetail({ merchantId, mode, settlementId }: { merchantId: string; mode: Mode; settlementId: string }) {
  const owned = await db().settlement.findFirst({
    where: { id: settlementId, merchantId, mode },
    select: { acquirerAccount: { select: { id: true, name: true } }, otherPostingList: true },
  });
  if (!owned) throw new NotFoundError("Settlement");
  const settlement = await getSettlement({ merchantId, settlementId });
  const paymentIds = [...new Set(settlement.lines.flatMap((line) => (line.paymentId ? [line.paymentId] : [])))];
  const payments = await db().payment.findMany({ where: { id: { in: paymentIds }, merchantId }, select: { id: true, merchantPaymentId: true } });
  // Our captures and refunds overdue for settlement when it was reconciled (decision 0198), with their payments.
  const overdue = await db().operation.findMany({
    where: { id: { in: settlement.overdueOperationIds }, payment: { merchantId } },
    select: { id: true, type: true, amount: true, currency: true, completedAt: true, paymentId: true, payment: { select: { merchantPaymentId: true } } },
    orderBy: { completedAt: "asc" },
  });
  const orderNumber = new Map(payments.map((payment) => [payment.id, payment.merchantPaymentId]));
  const lines = settlement.lines.map((line) => ({ ...line, merchantPaymentId: line.paymentId ? (orderNumber.get(line.paymentId) ?? null) : null }));
  return {
    ...settlement,
    account: owned.acquirerAccount,
    /** Postings besides transactions, as listed (the summary's `otherPostings` is their total). */
    otherPostingList: (owned.otherPostingList as { date: string; text: string; amount: string }[]).map((posting) => ({ ...posting, amount: BigInt(posting.amount) })),
    lines,
    exceptions: lines.filter((line) => line.result !== "matched"),
    overdue: overdue.map(({ payment, ...operation }) => ({ ...operation, merchantPaymentId: payment.merchantPaymentId })),
  };
}

export type SettlementDetail = Awaited<ReturnType<typeof getSettlementDetail>>;
