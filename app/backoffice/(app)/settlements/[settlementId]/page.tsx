import type { Metadata } from "next";
import Link from "next/link";
import { ownRecordLoader } from "@/lib/backoffice/own-record-loader";
import { getSettlementDetail, SETTLEMENT_LINES_SHOWN, type SettlementDetail } from "@/lib/backoffice/queries/get-settlement-detail";
import { EXPECTED_SETTLEMENT_DELAY_DAYS } from "@/lib/settlements/list-overdue-operations";
import { ACQUIRER_LABELS } from "@/lib/acquirers/names";
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/backoffice/list-parts";
import { formatDateTime, formatMoney } from "@/components/backoffice/format";
import { LineResultBadge, PayoutDifference, ReconciliationCounts } from "@/components/backoffice/settlement-parts";
import { PaymentLink } from "@/components/backoffice/reporting-notes";
import { BackLink } from "@/components/backoffice/back-link";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ settlementId: string }> };

const loadSettlement = ownRecordLoader((owner, settlementId) => getSettlementDetail({ ...owner, settlementId }));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { record: settlement } = await loadSettlement((await params).settlementId);
  return { title: `${settlement.periodStart} – ${settlement.periodEnd} · Settlement` };
}

const LINE_COLUMNS: Column[] = [
  { label: "Result", className: "sm:pl-6" },
  { label: "Amount" },
  { label: "Settled net", from: "md" },
  { label: "Our payment" },
  { label: "Transaction", from: "lg" },
  { label: "Processed (UTC)", className: "sm:pr-6", from: "xl" },
];

function LinesTable({ settlement, lines, label }: { settlement: SettlementDetail; lines: SettlementDetail["lines"]; label: string }) {
  return (
    <DataTable label={label} columns={LINE_COLUMNS} compact>
      {lines.map((line) => (
        <tr key={line.transactionId} data-testid="settlement-line">
          <td className="px-3 py-2 sm:pl-6">
            <LineResultBadge result={line.result} />
            <span className="block text-xs text-slate-500">{line.type}</span>
          </td>
          <td className="whitespace-nowrap px-3 py-2 tabular-nums">{formatMoney(line.amount, line.currency)}</td>
          <td className="hidden whitespace-nowrap px-3 py-2 tabular-nums md:table-cell">
            {line.settledNet !== null ? formatMoney(line.settledNet, line.settledCurrency ?? settlement.currency) : "—"}
            {line.settledFees !== null ? <span className="block text-xs text-slate-500">fees {formatMoney(line.settledFees, line.settledCurrency ?? settlement.currency)}</span> : null}
          </td>
          <td className="max-w-[10rem] px-3 py-2">
            <PaymentLink paymentId={line.paymentId} merchantPaymentId={line.merchantPaymentId} none="none" />
            {line.matchedBy ? <span className="block text-xs text-slate-500">by {line.matchedBy}</span> : null}
          </td>
          <td className="hidden max-w-[12rem] truncate px-3 py-2 font-mono text-xs lg:table-cell" title={line.transactionId}>
            {line.transactionId}
          </td>
          <td className="hidden whitespace-nowrap px-3 py-2 tabular-nums text-slate-600 sm:pr-6 xl:table-cell">{formatDateTime(line.processedAt)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

// A settlement's page: the acquirer's summary and payout, the reconciliation's counts, the fees by
// kind, the exceptions (mismatches, unknown transactions, ours not settled after the delay), every
// line, and the CSV export of the lines.
export default async function SettlementPage({ params }: Params) {
  const { record: settlement } = await loadSettlement((await params).settlementId);
  const money = (value: bigint | null) => (value === null ? null : formatMoney(value, settlement.currency));
  const fees = Object.entries(settlement.feesByKind);
  return (
    <>
      <BackLink href="/backoffice/settlements">Settlements</BackLink>
      <PageHeader
        title={`Settlement ${settlement.periodStart} – ${settlement.periodEnd}`}
        description={`${ACQUIRER_LABELS[settlement.processor]} · account “${settlement.account.name}” · ${settlement.settled ? "settled" : "open: its figures may still change"}`}
        actions={
          <a className={buttonClass("secondary")} href={`/backoffice/settlements/${settlement.id}/export`} download>
            Export lines (CSV)
          </a>
        }
      />
      <div className="space-y-6">
        <div className="grid gap-6 xl:grid-cols-3">
          <Card title="Payout" className="min-w-0 xl:col-span-2">
            <DescriptionList
              items={[
                { term: "Payout amount", value: <span data-testid="settlement-payout-amount">{money(settlement.payoutAmount) ?? "not paid out yet"}</span> },
                { term: "Payout date", value: settlement.payoutDate },
                { term: "Payout reference", value: settlement.payoutReference ? <span className="break-all font-mono text-xs">{settlement.payoutReference}</span> : null },
                { term: "Reserve held back", value: money(settlement.reserveAmount) },
                { term: "Net (the acquirer's summary)", value: <span data-testid="settlement-net">{money(settlement.net)}</span> },
                { term: "Net − (payout + reserve)", value: <PayoutDifference difference={settlement.payoutDifference} currency={settlement.currency} /> },
                { term: "Reconciliation", value: <ReconciliationCounts matched={settlement.matchedLines} mismatched={settlement.mismatchedLines} unknown={settlement.unknownLines} overdue={settlement.overdue.length} /> },
                { term: "Reconciled (UTC)", value: formatDateTime(settlement.reconciledAt) },
                { term: "Acquirer's settlement id", value: <span className="break-all font-mono text-xs">{settlement.acquirerSettlementId}</span> },
              ]}
            />
          </Card>
          <Card title="Summary" className="min-w-0">
            <DescriptionList
              items={[
                { term: "Sales", value: money(settlement.sales) },
                { term: "Credits", value: money(settlement.credits) },
                { term: "Refunds", value: money(settlement.refunds) },
                { term: "Chargebacks", value: money(settlement.chargebacks) },
                { term: "Fees", value: money(settlement.fees) },
                { term: "Other postings", value: money(settlement.otherPostings) },
              ]}
            />
          </Card>
        </div>

        <Card title="Fees by kind" description="As the acquirer itemises them; deductions are negative.">
          {fees.length === 0 ? (
            <p className="text-sm text-slate-600">The acquirer itemised no fees.</p>
          ) : (
            <ul className="grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="fees-by-kind">
              {fees.map(([kind, value]) => (
                <li key={kind} className="flex justify-between gap-3 rounded-md bg-slate-50 px-3 py-2">
                  <span className="text-slate-600">{kind}</span>
                  <span className="tabular-nums">{formatMoney(value, settlement.currency)}</span>
                </li>
              ))}
            </ul>
          )}
          {settlement.otherPostingList.length > 0 ? (
            <ul className="mt-4 space-y-1 text-sm">
              {settlement.otherPostingList.map((posting, index) => (
                <li key={index}>
                  {posting.date} · {posting.text} · <span className="tabular-nums">{formatMoney(posting.amount, settlement.currency)}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </Card>

        <Card title="Exceptions" description="Lines that do not match our books, and our operations no settlement has paid.">
          <div className="space-y-4" data-testid="settlement-exceptions">
            {settlement.exceptions.length === 0 && settlement.overdue.length === 0 ? (
              <p className="text-sm text-emerald-700">None: every line matches one of our operations with the same amount.</p>
            ) : null}
            {settlement.exceptions.length > 0 ? <LinesTable settlement={settlement} lines={settlement.exceptions} label="Lines that do not match" /> : null}
            {settlement.overdue.length > 0 ? (
              <div>
                <h3 className="text-sm font-semibold text-slate-900">Ours, not settled after {EXPECTED_SETTLEMENT_DELAY_DAYS} days</h3>
                <ul className="mt-2 space-y-1 text-sm" data-testid="overdue-operations">
                  {settlement.overdue.map((operation) => (
                    <li key={operation.id}>
                      <Link className="text-indigo-700 hover:underline" href={`/backoffice/payments/${operation.paymentId}`}>
                        {operation.merchantPaymentId ?? operation.paymentId}
                      </Link>{" "}
                      · {operation.type} of {formatMoney(operation.amount, operation.currency)} · completed {formatDateTime(operation.completedAt)} UTC
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        </Card>

        <Card title="Lines" description={`Every transaction the settlement counts, exceptions first${settlement.lines.length > SETTLEMENT_LINES_SHOWN ? `; the first ${SETTLEMENT_LINES_SHOWN} of ${settlement.lines.length} shown, all in the CSV export` : ""}.`}>
          {settlement.lines.length === 0 ? (
            <p className="text-sm text-slate-600">The acquirer lists no transactions for this settlement.</p>
          ) : (
            <LinesTable settlement={settlement} lines={settlement.lines.slice(0, SETTLEMENT_LINES_SHOWN)} label="Settlement lines" />
          )}
        </Card>
      </div>
    </>
  );
}
