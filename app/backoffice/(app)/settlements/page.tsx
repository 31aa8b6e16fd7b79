import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { readListQuery, type SearchParams } from "@/lib/backoffice/log-filters";
import { parseSettlementFilters, settlementFiltersToSearchParams } from "@/lib/backoffice/settlement-filters";
import { listSettlements, SETTLEMENT_PAGE_SIZE } from "@/lib/backoffice/queries/list-settlements";
import { listReportingAccounts } from "@/lib/backoffice/reporting-availability";
import { PageHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { ReportingAccountField, ReportingNotes } from "@/components/backoffice/reporting-notes";
import { DataTable, FilterCard, ListCard, type Column } from "@/components/backoffice/list-parts";
import { formatMoney } from "@/components/backoffice/format";
import { PayoutDifference, ReconciliationCounts } from "@/components/backoffice/settlement-parts";

export const metadata: Metadata = { title: "Settlements" };
export const dynamic = "force-dynamic";

const COLUMNS: Column[] = [
  { label: "Period", className: "sm:pl-6" },
  { label: "Payout" },
  { label: "Reconciliation", from: "md" },
  { label: "Net − (payout + reserve)", from: "md" },
  { label: "Account", from: "lg" },
  { label: "Payout reference", className: "sm:pr-6", from: "xl" },
];

// Settlements (the acquirers' payouts) imported from their reporting APIs, each reconciled with our
// operations (docs/decisions/0197, 0198): every role reads them.
export default async function SettlementsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { filters, errors, filtered } = readListQuery(await searchParams, parseSettlementFilters, settlementFiltersToSearchParams);
  const [rows, accounts] = await Promise.all([
    listSettlements({ merchantId: user.merchantId, mode: user.mode, accountId: filters.account }),
    listReportingAccounts({ merchantId: user.merchantId, mode: user.mode }),
  ]);

  return (
    <>
      <PageHeader
        title="Settlements"
        description="The payouts your acquirers report, newest period first, each matched line by line to your payments: matched, amount mismatch, unknown to us, and your captures and refunds not settled after the expected delay."
      />
      <ReportingNotes accounts={accounts} imported="settlements" />
      <FilterCard action="/backoffice/settlements" search label="Filter settlements" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <ReportingAccountField accounts={accounts} value={filters.account} error={errors.account} />
        <FilterFormActions clearHref="/backoffice/settlements" filtered={filtered} className="flex items-end gap-2" />
      </FilterCard>
      <ListCard
        empty={rows.length === 0}
        emptyText={filtered ? "No settlements for this account." : "No settlements: none of your acquirers has reported one."}
        footer={rows.length >= SETTLEMENT_PAGE_SIZE ? <p className="mt-4 text-xs text-slate-500">The newest {SETTLEMENT_PAGE_SIZE} shown: choose an account to see others.</p> : undefined}
      >
        <DataTable label="Settlements" columns={COLUMNS} compact>
          {rows.map((settlement) => (
            <tr key={settlement.id} className="hover:bg-slate-50" data-testid="settlement-row">
              <td className="px-3 py-2.5 sm:pl-6">
                <Link href={`/backoffice/settlements/${settlement.id}`} className="font-medium text-indigo-700 hover:underline">
                  {settlement.periodStart} – {settlement.periodEnd}
                </Link>
                <span className="block text-xs text-slate-500">{settlement.settled ? "settled" : <Badge tone="amber">open: may still change</Badge>}</span>
              </td>
              <td className="whitespace-nowrap px-3 py-2.5 tabular-nums" data-testid="settlement-payout">
                {settlement.payoutAmount !== null ? <span className="font-medium">{formatMoney(settlement.payoutAmount, settlement.currency)}</span> : <span className="text-slate-500">—</span>}
                <span className="block text-xs text-slate-500">
                  {settlement.payoutCancelledOn ? `cancelled ${settlement.payoutCancelledOn}` : (settlement.payoutDate ?? "no date yet")}
                </span>
                {/* On a phone the counts come under the payout: a column of their own would be scrolled out of sight. */}
                <span className="mt-1 block whitespace-normal md:hidden">
                  <ReconciliationCounts matched={settlement.matchedLines} mismatched={settlement.mismatchedLines} unknown={settlement.unknownLines} overdue={settlement.overdueOperations} />
                </span>
              </td>
              <td className="hidden px-3 py-2.5 md:table-cell">
                <ReconciliationCounts matched={settlement.matchedLines} mismatched={settlement.mismatchedLines} unknown={settlement.unknownLines} overdue={settlement.overdueOperations} />
              </td>
              <td className="hidden whitespace-nowrap px-3 py-2.5 tabular-nums md:table-cell">
                <PayoutDifference difference={settlement.payoutDifference} currency={settlement.currency} />
              </td>
              <td className="hidden max-w-[10rem] truncate px-3 py-2.5 lg:table-cell">{settlement.acquirerAccount.name}</td>
              <td className="hidden max-w-[10rem] truncate px-3 py-2.5 font-mono text-xs sm:pr-6 xl:table-cell">{settlement.payoutReference ?? "—"}</td>
            </tr>
          ))}
        </DataTable>
      </ListCard>
    </>
  );
}
