import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { getCachedOverviewStats } from "@/lib/backoffice/queries/get-cached-overview-stats";
import { listOperatorCases } from "@/lib/payments/settle-operation-by-operator";
import { Card, PageHeader } from "@/components/ui/card";
import { RateLineChart, StackedBarChart, moneyAxis } from "@/components/backoffice/charts";
import { formatDateTime, formatMoney, percent } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

const PROCESSOR_COLORS: Record<string, string> = { finaro: "#4f46e5", clearhaus: "#0891b2", bambora: "#d97706", none: "#94a3b8" };

export default async function OverviewPage() {
  const user = await requireUser();
  const { stats, computedAt } = await getCachedOverviewStats({ merchantId: user.merchantId, days: 30 });
  const operatorCases = await listOperatorCases({ merchantId: user.merchantId, limit: 20 });
  // The most used currency of the period; a period without payments shows the account's own
  // (its latest payment's or payment window's), and an account that never had one shows none.
  const currency = stats.currencies[0]?.currency ?? stats.accountCurrency;
  const money = (minor: bigint) => (currency ? formatMoney(minor, currency) : "—");
  const payouts = stats.payouts.find((entry) => entry.currency === currency) ?? stats.payouts[0];
  const processors = [...new Set(stats.rows.map((row) => row.processor))].sort();
  const dayIndex = new Map(stats.days.map((day, index) => [day, index]));

  const volume = processors.map((processor) => {
    const values = stats.days.map(() => 0);
    for (const row of stats.rows) if (row.processor === processor && row.currency === currency) values[dayIndex.get(row.day) ?? 0]! += Number(row.approvedAmount);
    return { name: processor, color: PROCESSOR_COLORS[processor] ?? "#64748b", values };
  });
  const approval = processors.map((processor) => {
    const approved = stats.days.map(() => 0);
    const decided = stats.days.map(() => 0);
    for (const row of stats.rows) {
      if (row.processor !== processor) continue;
      const index = dayIndex.get(row.day) ?? 0;
      approved[index]! += row.approved;
      decided[index]! += row.decided;
    }
    return { name: processor, color: PROCESSOR_COLORS[processor] ?? "#64748b", values: decided.map((count, index) => (count === 0 ? null : approved[index]! / count)) };
  });
  const totals = stats.rows.reduce((sum, row) => ({ payments: sum.payments + row.payments, approved: sum.approved + row.approved, decided: sum.decided + row.decided }), { payments: 0, approved: 0, decided: 0 });
  const byProcessor = processors.map((processor) => {
    const rows = stats.rows.filter((row) => row.processor === processor);
    return {
      processor,
      payments: rows.reduce((sum, row) => sum + row.payments, 0),
      approved: rows.reduce((sum, row) => sum + row.approved, 0),
      decided: rows.reduce((sum, row) => sum + row.decided, 0),
      volume: rows.filter((row) => row.currency === currency).reduce((sum, row) => sum + row.approvedAmount, 0n),
    };
  });
  const n = stats.notifications;

  return (
    <>
      <PageHeader title="Overview" description={`The last 30 days (UTC), ${stats.days[0]} to ${stats.days[stats.days.length - 1]}. Figures as of ${formatDateTime(computedAt)} UTC (refreshed every minute).`} />
      {operatorCases.length > 0 ? (
        <div className="mb-6" data-testid="operator-cases">
          <Card title="Operations waiting for an operator" description="The acquirer's answer is unknown and no look-up can settle it, or the acquirer contradicted a settlement. Their amounts stay reserved. Open the payment to settle (docs/operations.md, Unknown outcomes).">
            <ul className="space-y-1 text-sm">
              {operatorCases.map((operation) => (
                <li key={operation.id}>
                  <Link className="font-mono text-xs text-indigo-700 hover:underline" href={`/backoffice/payments/${operation.paymentId}#operations`}>
                    {operation.paymentId}
                  </Link>{" "}
                  {operation.type} {formatMoney(operation.amount, operation.currency)} at {operation.processor ?? "—"}:{" "}
                  {operation.status === "pending" ? `outcome unknown since ${formatDateTime(operation.operatorAlertedAt ?? operation.outcomeUnknownSince ?? new Date())} UTC` : "contradicted by the acquirer"}
                </li>
              ))}
            </ul>
          </Card>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <Stat label={currency ? `Approved volume (${currency})` : "Approved volume"} value={money(stats.currencies[0]?.approvedAmount ?? 0n)} testId="approved-volume" />
        <Stat label="Payments" value={totals.payments.toLocaleString("en")} hint="Payouts not included" testId="payment-count" />
        <Stat label="Approval rate" value={percent(totals.approved, totals.decided)} hint={`${totals.approved} of ${totals.decided} decided`} testId="approval-rate" />
        <Stat
          label={payouts ? `Payouts (${payouts.currency})` : "Payouts"}
          value={payouts ? formatMoney(-payouts.amount, payouts.currency) : money(0n)}
          hint={`${payouts?.count ?? 0} sent to cards${stats.payouts.length > 1 ? `; also ${stats.payouts.filter((entry) => entry !== payouts).map((entry) => formatMoney(-entry.amount, entry.currency)).join(", ")}` : ""}`}
          testId="payouts"
        />
        <Stat
          label="Notifications delivered"
          value={percent(n.delivered, n.delivered + n.failed)}
          hint={`${n.delivered} delivered, ${n.failed} failed, ${n.pending} pending${n.tests > 0 ? `; ${n.tests} test notification${n.tests === 1 ? "" : "s"} not counted` : ""}`}
          testId="notification-success-rate"
        />
      </div>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Card title="Approved volume by day" description={`By processor${currency ? `, in ${currency}` : ""}${stats.currencies.length > 1 ? ` (other currencies: ${stats.currencies.slice(1).map((c) => c.currency).join(", ")})` : ""}; payouts not included.`}>
          {totals.payments === 0 || !currency ? (
            <Empty />
          ) : (
            <StackedBarChart
              title="Approved volume by day and processor"
              labels={stats.days}
              series={volume}
              formatValue={moneyAxis(currency)}
              formatExact={(value) => formatMoney(BigInt(Math.round(value)), currency)}
              summary={`Total ${money(stats.currencies[0]?.approvedAmount ?? 0n)}.`}
            />
          )}
        </Card>
        <Card title="Approval rate by day" description="Approved authorizations among decided ones (approved, declined, failed), by processor.">
          {totals.decided === 0 ? <Empty /> : <RateLineChart title="Approval rate by day and processor" labels={stats.days} series={approval} summary={`Overall ${percent(totals.approved, totals.decided)}.`} />}
        </Card>
      </div>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Card title="By processor">
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">Processor</th>
                  <th scope="col" className="py-2 pr-4 text-right">Payments</th>
                  <th scope="col" className="py-2 pr-4 text-right">Approval rate</th>
                  <th scope="col" className="py-2 text-right">{currency ? `Volume (${currency})` : "Volume"}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {byProcessor.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="py-3 text-slate-500">No payments in this period.</td>
                  </tr>
                ) : (
                  byProcessor.map((row) => (
                    <tr key={row.processor}>
                      <td className="py-2 pr-4 font-medium">{row.processor}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{row.payments}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{percent(row.approved, row.decided)}</td>
                      <td className="py-2 text-right tabular-nums">{money(row.volume)}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </Card>
        <Card title="Notification delivery" description="Notifications to your servers created in this period; test notifications are not counted.">
          <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
            <Mini label="Delivered" value={n.delivered} testId="notifications-delivered" />
            <Mini label="Failed" value={n.failed} testId="notifications-failed" />
            <Mini label="Pending" value={n.pending} />
            <Mini label="Attempts answered 200" value={`${percent(n.successfulAttempts, n.attempts)}`} />
          </dl>
          <p className="mt-4 text-sm">
            <Link className="font-medium text-indigo-700 hover:underline" href="/backoffice/settings/notifications">
              Notification URLs and test notification →
            </Link>
          </p>
        </Card>
      </div>
    </>
  );
}

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

function Mini({ label, value, testId }: { label: string; value: number | string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Empty() {
  return <p className="py-10 text-center text-sm text-slate-500">No payments in this period yet.</p>;
}
