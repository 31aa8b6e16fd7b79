// Overview aggregates: payment volume and approval rate by day and by processor, and how well
// notifications reach the merchant. One GROUP BY each over the merchant's (merchantId, createdAt)
// index range, so the cost follows the chosen period, not the table size.
// Payouts (money sent to a card, stored CAPTURED) are not approved volume: they are counted on
// their own. Test notifications (Settings → Notifications) are not deliveries of payment news:
// they are left out of the delivery figures, so a failed test does not read as a delivery failure.
import { db } from "../../db";

/** Payments whose authorization was approved (whatever happened to them afterwards). */
const APPROVED = ["AUTHORIZED", "CAPTURED", "REFUNDED", "VOIDED"] as const;
/** Payments that reached a processor decision or failed; pending and token-only ones do not count. */
const DECIDED = [...APPROVED, "DECLINED", "FAILED"] as const;

export interface DayProcessorRow {
  day: string;
  processor: string;
  currency: string;
  payments: number;
  approved: number;
  decided: number;
  approvedAmount: bigint;
}

export interface OverviewStats {
  from: Date;
  to: Date;
  days: string[];
  rows: DayProcessorRow[];
  currencies: { currency: string; approvedAmount: bigint; payments: number }[];
  /** Approved payouts, per currency, most first. */
  payouts: { currency: string; amount: bigint; count: number }[];
  notifications: { total: number; delivered: number; failed: number; pending: number; attempts: number; successfulAttempts: number; tests: number };
  /**
   * The currency the account trades in, for figures of a period without payments: the currency
   * of its latest payment (any period), else of its latest payment window; null for an account that
   * never had either (no currency is made up).
   */
  accountCurrency: string | null;
}

export async function getOverviewStats({ merchantId, days = 30, now = new Date() }: { merchantId: string; days?: number; now?: Date }): Promise<OverviewStats> {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const from = new Date(to.getTime() - days * 86_400_000);
  const rows = await db().$queryRaw<
    { day: Date; processor: string | null; currency: string; payments: bigint; approved: bigint; decided: bigint; approved_amount: bigint | null }[]
  >`
    SELECT date_trunc('day', "createdAt" AT TIME ZONE 'UTC') AS day,
           "processor"::text AS processor,
           "currency",
           count(*) AS payments,
           count(*) FILTER (WHERE "status"::text = ANY(${[...APPROVED]}::text[])) AS approved,
           count(*) FILTER (WHERE "status"::text = ANY(${[...DECIDED]}::text[])) AS decided,
           sum("amount") FILTER (WHERE "status"::text = ANY(${[...APPROVED]}::text[]))::bigint AS approved_amount
      FROM "Payment"
     WHERE "merchantId" = ${merchantId} AND "createdAt" >= ${from} AND "createdAt" < ${to} AND "paymentType" <> 'payout'
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3`;
  const [notificationCounts, testCount, attemptCounts, payoutRows, accountCurrency] = await Promise.all([
    db().notification.groupBy({ by: ["status"], where: { merchantId, createdAt: { gte: from, lt: to }, kind: { not: "test" } }, _count: { _all: true } }),
    db().notification.count({ where: { merchantId, createdAt: { gte: from, lt: to }, kind: "test" } }),
    db().$queryRaw<{ attempts: bigint; successful: bigint }[]>`
      SELECT count(*) AS attempts, count(*) FILTER (WHERE a."statusCode" = 200) AS successful
        FROM "NotificationAttempt" a JOIN "Notification" n ON n."id" = a."notificationId"
       WHERE n."merchantId" = ${merchantId} AND n."createdAt" >= ${from} AND n."createdAt" < ${to} AND n."kind"::text <> 'test'`,
    db().$queryRaw<{ currency: string; amount: bigint | null; count: bigint }[]>`
      SELECT "currency", sum("amount")::bigint AS amount, count(*) AS count
        FROM "Payment"
       WHERE "merchantId" = ${merchantId} AND "createdAt" >= ${from} AND "createdAt" < ${to} AND "paymentType" = 'payout' AND "status" = 'CAPTURED'
       GROUP BY 1`,
    findAccountCurrency(merchantId),
  ]);
  const mapped: DayProcessorRow[] = rows.map((row) => ({
    day: new Date(row.day).toISOString().slice(0, 10),
    processor: row.processor ?? "none",
    currency: row.currency,
    payments: Number(row.payments),
    approved: Number(row.approved),
    decided: Number(row.decided),
    approvedAmount: row.approved_amount ?? 0n,
  }));
  const byCurrency = new Map<string, { approvedAmount: bigint; payments: number }>();
  for (const row of mapped) {
    const entry = byCurrency.get(row.currency) ?? { approvedAmount: 0n, payments: 0 };
    entry.approvedAmount += row.approvedAmount;
    entry.payments += row.payments;
    byCurrency.set(row.currency, entry);
  }
  const count = (status: string) => notificationCounts.find((entry) => entry.status === status)?._count._all ?? 0;
  const allDays = Array.from({ length: days }, (_, index) => new Date(from.getTime() + index * 86_400_000).toISOString().slice(0, 10));
  return {
    from,
    to,
    days: allDays,
    rows: mapped,
    currencies: [...byCurrency.entries()].map(([currency, entry]) => ({ currency, ...entry })).sort((a, b) => b.payments - a.payments),
    notifications: {
      delivered: count("delivered"),
      failed: count("failed"),
      pending: count("pending"),
      total: count("delivered") + count("failed") + count("pending"),
      attempts: Number(attemptCounts[0]?.attempts ?? 0),
      successfulAttempts: Number(attemptCounts[0]?.successful ?? 0),
      tests: testCount,
    },
    payouts: payoutRows.map((row) => ({ currency: row.currency, amount: row.amount ?? 0n, count: Number(row.count) })).sort((a, b) => b.count - a.count),
    accountCurrency,
  };
}

/** Two index reads: Payment(merchantId, createdAt DESC) and PaymentSession(merchantId, createdAt). */
async function findAccountCurrency(merchantId: string): Promise<string | null> {
  const payment = await db().payment.findFirst({ where: { merchantId }, orderBy: { createdAt: "desc" }, select: { currency: true } });
  if (payment) return payment.currency;
  const session = await db().paymentSession.findFirst({ where: { merchantId }, orderBy: { createdAt: "desc" }, select: { currency: true } });
  return session?.currency ?? null;
}
