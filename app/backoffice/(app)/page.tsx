import type { Metadata } from "next";
import { ACQUIRER_NAMES } from "@/lib/acquirers/names";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { getCachedOverviewStats } from "@/lib/backoffice/queries/get-cached-overview-stats";
import { listOperatorCases } from "@/lib/payments/settle-operation-by-operator";
import { parseOverviewRange } from "@/lib/backoffice/overview-range";
import type { SearchParams } from "@/lib/backoffice/log-filters";
import { Card, PageHeader } from "@/components/ui/card";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { DataTable, DateRangeFields, FilterCard, type Column } from "@/components/backoffice/list-parts";
import { RateLineChart, StackedBarChart, moneyAxis } from "@/components/backoffice/charts";
import { formatDateTime, formatMoney, percent } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

/** Each acquirer's colour in the charts, in the order of lib/acquirers/names.ts; payments without one are grey. */
const PALETTE = ["#4f46e5", "#0891b2", "#d97706", "#059669", "#db2777", "#7c3aed"];
const PROCESSOR_COLORS: Record<string, string> = {
  ...Object.fromEntries(ACQUIRER_NAMES.map((name, index) => [name, PALETTE[index % PALETTE.length]!])),
  none: "#94a3b8",
};

const CURRENCY_COLUMNS: Column[] = [
  { label: "Currency", className: "sm:pl-6" },
  ...["Payments", "Approved", "Captured", "Refunded"].map((label): Column => ({ label, align: "right" })),
  { label: "Net", align: "right", className: "sm:pr-6" },
];

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { range, chosen, errors } = parseOverviewRange(await searchParams);
  const { stats, computedAt } = await getCachedOverviewStats({ merchantId: user.merchantId, mode: user.mode, range });
  // The most used currency of the range leads the figures; every currency is totalled in the
  // "Volume by currency" table. A range without payments shows the account's own currency (its
  // latest payment's or payment window's), and an account that never had one shows none.
  const main = stats.currencies[0];
  const currency = main?.currency ?? stats.accountCurrency;
  const operatorCases = await listOperatorCases({ merchantId: user.merchantId, limit: 20 });
  const money = (minor: bigint) => (currency ? formatMoney(minor, currency) : "—");
  const payouts = stats.payouts.find((entry) => entry.currency === currency) ?? stats.payouts[0];
  const processors = [...new Set([...stats.rows.map((row) => row.processor), ...stats.attempts.map((row) => row.processor)])].filter((name) => name !== "none").sort();
  const dayIndex = new Map(stats.days.map((day, index) => [day, index]));

  const volume = processors.map((processor) => {
    const values = stats.days.map(() => 0);
    for (const row of stats.rows) if (row.processor === processor && row.currency === currency) values[dayIndex.get(row.day) ?? 0]! += Number(row.approvedAmount);
    return { name: processor, color: PROCESSOR_COLORS[processor] ?? "#64748b", values };
  });
  // Each acquirer's own answers (lib/backoffice/queries/overview-stats.ts): a payment one acquirer
  // declined and another approved counts for both.
  const approval = processors.map((processor) => {
    const approved = stats.days.map(() => 0);
    const answered = stats.days.map(() => 0);
    for (const row of stats.attempts) {
      if (row.processor !== processor) continue;
      const index = dayIndex.get(row.day) ?? 0;
      approved[index]! += row.approved;
      answered[index]! += row.approved + row.declined + row.failed;
    }
    return { name: processor, color: PROCESSOR_COLORS[processor] ?? "#64748b", values: answered.map((count, index) => (count === 0 ? null : approved[index]! / count)) };
  });
  const totals = stats.rows.reduce((sum, row) => ({ payments: sum.payments + row.payments, approved: sum.approved + row.approved, decided: sum.decided + row.decided }), { payments: 0, approved: 0, decided: 0 });
  const byProcessor = processors.map((processor) => {
    const attempts = stats.attempts.filter((row) => row.processor === processor);
    const approved = attempts.reduce((sum, row) => sum + row.approved, 0);
    const declined = attempts.reduce((sum, row) => sum + row.declined + row.failed, 0);
    return {
      processor,
      attempts: approved + declined,
      approved,
      declined,
      volume: stats.rows.filter((row) => row.processor === processor && row.currency === currency).reduce((sum, row) => sum + row.approvedAmount, 0n),
    };
  });
  const answeredAttempts = byProcessor.reduce((sum, row) => sum + row.attempts, 0);
  const n = stats.notifications;
  const notificationHint = [
    `${n.delivered} of ${n.total} delivered`,
    `${n.retrying} retrying`,
    `${n.failed} failed`,
    ...(n.pending > 0 ? [`${n.pending} pending`] : []),
  ].join(" · ");
  const period = `${range.from} to ${range.to} (UTC)`;

  return (
    <>
      <PageHeader
        title="Overview"
        description={`${chosen ? "" : "The last 30 days, "}${period}: the payments and notifications created in these days. Figures as of ${formatDateTime(computedAt)} UTC (refreshed every minute).`}
      />
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
      <FilterCard action="/backoffice" label="Choose the period" className="grid gap-4 sm:grid-cols-3 lg:grid-cols-4">
        <DateRangeFields from={range.from} to={range.to} errors={errors} />
        <FilterFormActions clearHref="/backoffice" filtered={chosen} />
      </FilterCard>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Stat label={currency ? `Approved volume (${currency})` : "Approved volume"} value={money(main?.approvedAmount ?? 0n)} hint="Authorizations approved, whatever happened to them later" testId="approved-volume" />
        <Stat label={currency ? `Captured (${currency})` : "Captured"} value={money(main?.capturedAmount ?? 0n)} hint="Taken from the cards so far" testId="captured-volume" />
        <Stat label={currency ? `Refunded (${currency})` : "Refunded"} value={money(main?.refundedAmount ?? 0n)} hint="Given back to the cards so far" testId="refunded-volume" />
        <Stat label={currency ? `Net volume (${currency})` : "Net volume"} value={money(main?.netAmount ?? 0n)} hint={stats.currencies.length > 1 ? "Captured minus refunded; other currencies below" : "Captured minus refunded"} testId="net-volume" />
        <Stat label="Payments" value={totals.payments.toLocaleString("en")} hint="Payouts not included" testId="payment-count" />
        <Stat label="Approval rate" value={percent(totals.approved, totals.decided)} hint={`${totals.approved} of ${totals.decided} payments decided`} testId="approval-rate" />
        <Stat
          label={payouts ? `Payouts (${payouts.currency})` : "Payouts"}
          value={payouts ? formatMoney(-payouts.amount, payouts.currency) : money(0n)}
          hint={`${payouts?.count ?? 0} sent to cards${stats.payouts.length > 1 ? `; also ${stats.payouts.filter((entry) => entry !== payouts).map((entry) => formatMoney(-entry.amount, entry.currency)).join(", ")}` : ""}`}
          testId="payouts"
        />
        <Stat label="Notifications delivered" value={percent(n.delivered, n.total)} hint={`${notificationHint}${n.tests > 0 ? `; ${n.tests} test notification${n.tests === 1 ? "" : "s"} not counted` : ""}`} testId="notification-success-rate" />
      </div>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Card className="min-w-0" title="Approved volume by day" description={`By processor${currency ? `, in ${currency}` : ""}${stats.currencies.length > 1 ? ` (other currencies in the table below)` : ""}; payouts not included.`}>
          {totals.payments === 0 || !currency ? (
            <Empty />
          ) : (
            <StackedBarChart
              title="Approved volume by day and processor"
              labels={stats.days}
              series={volume}
              formatValue={moneyAxis(currency)}
              formatExact={(value) => formatMoney(BigInt(Math.round(value)), currency)}
              summary={`Total ${money(main?.approvedAmount ?? 0n)}.`}
            />
          )}
        </Card>
        <Card className="min-w-0" title="Approval rate by day" description="Each processor's authorization answers: approved among approved, declined and failed. A payment one processor declined and another approved counts for both.">
          {answeredAttempts === 0 ? <Empty /> : <RateLineChart title="Approval rate by day and processor" labels={stats.days} series={approval} summary={`Overall ${percent(totals.approved, totals.decided)} of payments approved.`} />}
        </Card>
      </div>
      <div className="mt-6">
        <Card title="Volume by currency" description="Captured and refunded so far of the payments created in the period; net is captured minus refunded. Payouts not included.">
          {stats.currencies.length === 0 ? (
            <Empty />
          ) : (
            <DataTable label="Volume by currency" columns={CURRENCY_COLUMNS} ruled={false}>
              {stats.currencies.map((row) => (
                <tr key={row.currency} data-testid="currency-row" data-currency={row.currency}>
                  <td className="px-4 py-2 font-medium sm:pl-6">{row.currency}</td>
                  <td className="px-4 py-2 text-right tabular-nums">{row.payments}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums" data-testid="currency-approved">{formatMoney(row.approvedAmount, row.currency)}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums" data-testid="currency-captured">{formatMoney(row.capturedAmount, row.currency)}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums" data-testid="currency-refunded">{formatMoney(row.refundedAmount, row.currency)}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-right font-medium tabular-nums sm:pr-6" data-testid="currency-net">{formatMoney(row.netAmount, row.currency)}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
      {/* Grid items may shrink below their tables' width (min-w-0): the tables scroll inside their cards on a phone. */}
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Card className="min-w-0" title="By processor" description="Authorization answers of each processor, declines included, even when another processor then approved the payment.">
          <DataTable
            label="By processor"
            columns={[
              { label: "Processor", className: "sm:pl-6" },
              { label: "Approved", align: "right" },
              { label: "Declined", align: "right" },
              { label: "Approval rate", align: "right" },
              { label: currency ? `Volume (${currency})` : "Volume", align: "right", className: "sm:pr-6" },
            ]}
            ruled={false}
          >
            {byProcessor.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-4 py-3 text-slate-500 sm:px-6">No payments in this period.</td>
              </tr>
            ) : (
              byProcessor.map((row) => (
                <tr key={row.processor} data-testid="processor-row">
                  <td className="px-4 py-2 font-medium sm:pl-6">{row.processor}</td>
                  <td className="px-4 py-2 text-right tabular-nums">{row.approved}</td>
                  <td className="px-4 py-2 text-right tabular-nums" data-testid="processor-declined">{row.declined}</td>
                  <td className="px-4 py-2 text-right tabular-nums" data-testid="processor-approval-rate">{percent(row.approved, row.attempts)}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums sm:pr-6">{money(row.volume)}</td>
                </tr>
              ))
            )}
          </DataTable>
        </Card>
        <Card className="min-w-0" title="Notification delivery" description="Notifications to your servers created in this period, by delivery state; test notifications are not counted.">
          <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
            <Mini label="Delivered" value={n.delivered} testId="notifications-delivered" />
            <Mini label="Retrying" value={n.retrying} testId="notifications-retrying" />
            <Mini label="Failed" value={n.failed} testId="notifications-failed" />
            <Mini label="Attempts answered 200" value={`${percent(n.successfulAttempts, n.attempts)}`} />
          </dl>
          <p className="mt-4 text-sm">
            <Link className="font-medium text-indigo-700 hover:underline" href="/backoffice/developers/notifications?status=retrying">
              Notifications retrying →
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
