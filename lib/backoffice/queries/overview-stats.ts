// Overview aggregates over a range of UTC days: payment volume (approved, captured, refunded, net)
// per currency, approval rates by day, per payment and per acquirer's authorization attempt, and
// how well notifications reach the merchant. Every figure is of the payments (and notifications)
// created in the range, the same rows the payments list shows for those dates. One GROUP BY each
// over the merchant's (merchantId, createdAt) index range, so the cost follows the chosen range,
// not the table size.
// An acquirer's approval rate counts its own answers (Operation rows of type authorize): a payment
// finaro declined and clearhaus then approved is a decline for finaro and an approval for clearhaus;
// counted by the processor that finished the payment, finaro's declines did not show (review F13).
// Payouts (money sent to a card, stored CAPTURED) are not approved volume: they are counted on
// their own. Test notifications (Settings → Notifications) are not deliveries of payment news:
// they are left out of the delivery figures, so a failed test does not read as a delivery failure.
// Every figure is of one mode (the back office's mode switch): test payments never count as live.
import { db } from "../../db";
import type { Mode } from "../../mode";

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
  /** Captured and refunded so far of the payments of that day (payouts apart). */
  capturedAmount: bigint;
  refundedAmount: bigint;
}

/** One acquirer's answers to authorization requests for the payments of one day. */
export interface DayAttemptRow {
  day: string;
  processor: string;
  approved: number;
  declined: number;
  /** No usable answer (time-out, error): counted against the acquirer like a decline. */
  failed: number;
}

export interface CurrencyTotals {
  currency: string;
  approvedAmount: bigint;
  capturedAmount: bigint;
  refundedAmount: bigint;
  /** Captured minus refunded. */
  netAmount: bigint;
  payments: number;
}

/** A notification's delivery, in the words every page uses (lib/backoffice/delivery-state.ts). */
export interface NotificationCounts {
  total: number;
  delivered: number;
  retrying: number;
  /** Not attempted yet. */
  pending: number;
  failed: number;
  attempts: number;
  successfulAttempts: number;
  tests: number;
}

export interface OverviewStats {
  from: Date;
  to: Date;
  days: string[];
  rows: DayProcessorRow[];
  attempts: DayAttemptRow[];
  /** Every currency of the range, most payments first. */
  currencies: CurrencyTotals[];
  /** Approved payouts, per currency, most first. */
  payouts: { currency: string; amount: bigint; count: number }[];
  notifications: NotificationCounts;
  /**
   * The currency the account trades in, for figures of a period without payments: the currency
   * of its latest payment (any period), else of its latest payment window; null for an account that
   * never had either (no currency is made up).
   */
  accountCurrency: string | null;
}

/** A range of whole UTC days, both ends included, as the overview's date pickers give it. */
export interface DayRange {
  from: string;
  to: string;
}

/** The last `days` UTC days up to and including today's. */
export function lastDays(days: number, now = new Date()): DayRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: new Date(today - (days - 1) * 86_400_000).toISOString().slice(0, 10), to: new Date(today).toISOString().slice(0, 10) };
}

/** Whose figures, and of which days: `range`, else the last `days` (30) up to `now`. */
export interface OverviewQuery {
  merchantId: string;
  mode: Mode;
  days?: number;
  now?: Date;
  range?: DayRange;
}

export async function getOverviewStats({ merchantId, mode, days = 30, now = new Date(), range = lastDays(days, now) }: OverviewQuery): Promise<OverviewStats> {
  const from = new Date(`${range.from}T00:00:00Z`);
  const to = new Date(new Date(`${range.to}T00:00:00Z`).getTime() + 86_400_000);
  const dayCount = Math.round((to.getTime() - from.getTime()) / 86_400_000);
  const rows = await db().$queryRaw<
    { day: Date; processor: string | null; currency: string; payments: bigint; approved: bigint; decided: bigint; approved_amount: bigint | null; captured_amount: bigint | null; refunded_amount: bigint | null }[]
  >`
    SELECT date_trunc('day', "createdAt" AT TIME ZONE 'UTC') AS day,
           "processor"::text AS processor,
           "currency",
           count(*) AS payments,
           count(*) FILTER (WHERE "status"::text = ANY(${[...APPROVED]}::text[])) AS approved,
           count(*) FILTER (WHERE "status"::text = ANY(${[...DECIDED]}::text[])) AS decided,
           sum("amount") FILTER (WHERE "status"::text = ANY(${[...APPROVED]}::text[]))::bigint AS approved_amount,
           sum("capturedAmount")::bigint AS captured_amount,
           sum("refundedAmount")::bigint AS refunded_amount
      FROM "Payment"
     WHERE "merchantId" = ${merchantId} AND "mode" = ${mode}::"Mode" AND "createdAt" >= ${from} AND "createdAt" < ${to} AND "paymentType" <> 'payout'
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3`;
  const [attemptRows, notificationRows, attemptCounts, payoutRows, accountCurrency] = await Promise.all([
    // Each acquirer's answers: the authorize operations of the range's payments, joined on the
    // Operation(paymentId, createdAt) index from the payments of the (merchantId, createdAt) range.
    db().$queryRaw<{ day: Date; processor: string | null; approved: bigint; declined: bigint; failed: bigint }[]>`
      SELECT date_trunc('day', p."createdAt" AT TIME ZONE 'UTC') AS day,
             o."processor"::text AS processor,
             count(*) FILTER (WHERE o."status" = 'approved') AS approved,
             count(*) FILTER (WHERE o."status" = 'declined') AS declined,
             count(*) FILTER (WHERE o."status" = 'failed') AS failed
        FROM "Payment" p JOIN "Operation" o ON o."paymentId" = p."id"
       WHERE p."merchantId" = ${merchantId} AND p."mode" = ${mode}::"Mode" AND p."createdAt" >= ${from} AND p."createdAt" < ${to} AND p."paymentType" <> 'payout'
         AND o."type" = 'authorize' AND o."status" <> 'pending'
       GROUP BY 1, 2
       ORDER BY 1, 2`,
    db().$queryRaw<{ delivered: bigint; retrying: bigint; pending: bigint; failed: bigint; tests: bigint }[]>`
      SELECT count(*) FILTER (WHERE "kind" <> 'test' AND "status" = 'delivered') AS delivered,
             count(*) FILTER (WHERE "kind" <> 'test' AND "status" = 'pending' AND "attemptCount" > 0) AS retrying,
             count(*) FILTER (WHERE "kind" <> 'test' AND "status" = 'pending' AND "attemptCount" = 0) AS pending,
             count(*) FILTER (WHERE "kind" <> 'test' AND "status" = 'failed') AS failed,
             count(*) FILTER (WHERE "kind" = 'test') AS tests
        FROM "Notification"
       WHERE "merchantId" = ${merchantId} AND "mode" = ${mode}::"Mode" AND "createdAt" >= ${from} AND "createdAt" < ${to}`,
    db().$queryRaw<{ attempts: bigint; successful: bigint }[]>`
      SELECT count(*) AS attempts, count(*) FILTER (WHERE a."statusCode" = 200) AS successful
        FROM "NotificationAttempt" a JOIN "Notification" n ON n."id" = a."notificationId"
       WHERE n."merchantId" = ${merchantId} AND n."mode" = ${mode}::"Mode" AND n."createdAt" >= ${from} AND n."createdAt" < ${to} AND n."kind"::text <> 'test'`,
    db().$queryRaw<{ currency: string; amount: bigint | null; count: bigint }[]>`
      SELECT "currency", sum("amount")::bigint AS amount, count(*) AS count
        FROM "Payment"
       WHERE "merchantId" = ${merchantId} AND "mode" = ${mode}::"Mode" AND "createdAt" >= ${from} AND "createdAt" < ${to} AND "paymentType" = 'payout' AND "status" = 'CAPTURED'
       GROUP BY 1`,
    findAccountCurrency(merchantId, mode),
  ]);
  const mapped: DayProcessorRow[] = rows.map((row) => ({
    day: new Date(row.day).toISOString().slice(0, 10),
    processor: row.processor ?? "none",
    currency: row.currency,
    payments: Number(row.payments),
    approved: Number(row.approved),
    decided: Number(row.decided),
    approvedAmount: row.approved_amount ?? 0n,
    capturedAmount: row.captured_amount ?? 0n,
    refundedAmount: row.refunded_amount ?? 0n,
  }));
  const byCurrency = new Map<string, CurrencyTotals>();
  for (const row of mapped) {
    const entry = byCurrency.get(row.currency) ?? { currency: row.currency, approvedAmount: 0n, capturedAmount: 0n, refundedAmount: 0n, netAmount: 0n, payments: 0 };
    entry.approvedAmount += row.approvedAmount;
    entry.capturedAmount += row.capturedAmount;
    entry.refundedAmount += row.refundedAmount;
    entry.netAmount = entry.capturedAmount - entry.refundedAmount;
    entry.payments += row.payments;
    byCurrency.set(row.currency, entry);
  }
  const counts = notificationRows[0];
  const notifications = {
    delivered: Number(counts?.delivered ?? 0),
    retrying: Number(counts?.retrying ?? 0),
    pending: Number(counts?.pending ?? 0),
    failed: Number(counts?.failed ?? 0),
  };
  const allDays = Array.from({ length: dayCount }, (_, index) => new Date(from.getTime() + index * 86_400_000).toISOString().slice(0, 10));
  return {
    from,
    to,
    days: allDays,
    rows: mapped,
    attempts: attemptRows.map((row) => ({
      day: new Date(row.day).toISOString().slice(0, 10),
      processor: row.processor ?? "none",
      approved: Number(row.approved),
      declined: Number(row.declined),
      failed: Number(row.failed),
    })),
    currencies: [...byCurrency.values()].sort((a, b) => b.payments - a.payments),
    notifications: {
      ...notifications,
      total: notifications.delivered + notifications.retrying + notifications.pending + notifications.failed,
      attempts: Number(attemptCounts[0]?.attempts ?? 0),
      successfulAttempts: Number(attemptCounts[0]?.successful ?? 0),
      tests: Number(counts?.tests ?? 0),
    },
    payouts: payoutRows.map((row) => ({ currency: row.currency, amount: row.amount ?? 0n, count: Number(row.count) })).sort((a, b) => b.count - a.count),
    accountCurrency,
  };
}

/** Two index reads: Payment(merchantId, mode, createdAt DESC) and PaymentSession(merchantId, createdAt). */
async function findAccountCurrency(merchantId: string, mode: Mode): Promise<string | null> {
  const payment = await db().payment.findFirst({ where: { merchantId, mode }, orderBy: { createdAt: "desc" }, select: { currency: true } });
  if (payment) return payment.currency;
  const session = await db().paymentSession.findFirst({ where: { merchantId, mode }, orderBy: { createdAt: "desc" }, select: { currency: true } });
  return session?.currency ?? null;
}
