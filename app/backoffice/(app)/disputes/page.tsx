import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { readListQuery, type SearchParams } from "@/lib/backoffice/log-filters";
import { DISPUTE_KIND_LABELS, DISPUTE_STATUS_LABELS, disputeFiltersToSearchParams, parseDisputeFilters } from "@/lib/backoffice/dispute-filters";
import { DISPUTE_PAGE_SIZE, listDisputeRows } from "@/lib/backoffice/queries/list-dispute-rows";
import { listReportingAccounts } from "@/lib/backoffice/reporting-availability";
import { DISPUTE_KINDS, DISPUTE_STATUSES, type DisputeKind } from "@/lib/acquirers/contract";
import { PageHeader } from "@/components/ui/card";
import { SelectField } from "@/components/ui/field";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { PaymentLink, ReportingAccountField, ReportingNotes } from "@/components/backoffice/reporting-notes";
import { DataTable, FilterCard, ListCard, type Column } from "@/components/backoffice/list-parts";
import { formatMoney } from "@/components/backoffice/format";
import { DisputeStatusBadge, DueDate } from "@/components/backoffice/dispute-parts";
import { CheckDisputesForm } from "@/components/backoffice/check-disputes-form";
import { roleCan } from "@/lib/auth/roles";
import { checkForNewDisputesAction } from "./actions";

export const metadata: Metadata = { title: "Disputes" };
export const dynamic = "force-dynamic";

// On a phone the due date, the amount and the dispute (its link and status) fit the card's width;
// the rest joins on wider screens.
const COLUMNS: Column[] = [
  { label: "Due", className: "sm:pl-6" },
  { label: "Amount" },
  { label: "Dispute" },
  { label: "Payment", from: "md" },
  { label: "Account", from: "lg" },
  { label: "Opened", className: "sm:pr-6", from: "lg" },
];

// Disputes (chargebacks and retrieval requests) imported from the acquirers' reporting APIs: every
// role reads them; owners and developers check for new ones now (where an account has reporting
// credentials) and answer them on a dispute's page.
export default async function DisputesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { filters, errors, filtered } = readListQuery(await searchParams, parseDisputeFilters, disputeFiltersToSearchParams);
  const [rows, accounts] = await Promise.all([
    listDisputeRows({ merchantId: user.merchantId, mode: user.mode, filters }),
    listReportingAccounts({ merchantId: user.merchantId, mode: user.mode }),
  ]);
  const today = new Date().toISOString().slice(0, 10);
  const canCheck = roleCan(user.role, "payments:write") && accounts.some((account) => account.reportingApi && account.credentialsSet);

  return (
    <>
      <PageHeader
        title="Disputes"
        description="Chargebacks and retrieval requests your acquirers report, those still to answer first (earliest due date first), then the rest newest first. Dates are the acquirer's calendar days; an answer is refused after the due date."
      />
      {canCheck ? <CheckDisputesForm action={checkForNewDisputesAction} /> : null}
      <ReportingNotes accounts={accounts} imported="disputes" />
      <FilterCard action="/backoffice/disputes" search label="Filter disputes" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          id="status"
          label="Status"
          defaultValue={filters.status ?? ""}
          error={errors.status}
          options={[{ value: "", label: "Any status" }, ...DISPUTE_STATUSES.map((value) => ({ value, label: DISPUTE_STATUS_LABELS[value] }))]}
        />
        <SelectField
          id="kind"
          label="Kind"
          defaultValue={filters.kind ?? ""}
          error={errors.kind}
          options={[{ value: "", label: "Any kind" }, ...DISPUTE_KINDS.map((value) => ({ value, label: DISPUTE_KIND_LABELS[value] }))]}
        />
        <ReportingAccountField accounts={accounts} value={filters.account} error={errors.account} />
        <FilterFormActions clearHref="/backoffice/disputes" filtered={filtered} className="flex items-end gap-2" />
      </FilterCard>

      <ListCard
        empty={rows.length === 0}
        emptyText={filtered ? "No disputes match these filters." : "No disputes: none of your acquirers has reported one."}
        footer={rows.length >= DISPUTE_PAGE_SIZE ? <p className="mt-4 text-xs text-slate-500">The first {DISPUTE_PAGE_SIZE} shown: narrow the filters to see others.</p> : undefined}
      >
        <DataTable label="Disputes" columns={COLUMNS} compact>
          {rows.map((dispute) => (
            <tr key={dispute.disputeId} className="hover:bg-slate-50" data-testid="dispute-row">
              <td className="whitespace-nowrap px-3 py-2.5 sm:pl-6">
                <DueDate dueOn={dispute.dueOn} open={dispute.status === "open"} today={today} />
              </td>
              <td className="whitespace-nowrap px-3 py-2.5 font-medium tabular-nums" data-testid="dispute-amount">
                {formatMoney(dispute.amount, dispute.currency)}
                {dispute.partial ? <span className="block text-xs font-normal text-slate-500">partial</span> : null}
              </td>
              <td className="px-3 py-2.5">
                <Link href={`/backoffice/disputes/${dispute.disputeId}`} className="block font-medium text-indigo-700 hover:underline" title={dispute.reason}>
                  {DISPUTE_KIND_LABELS[dispute.kind as DisputeKind] ?? dispute.kind} · {dispute.reasonCode}
                </Link>
                <span className="mt-0.5 flex flex-wrap items-center gap-x-2">
                  <DisputeStatusBadge status={dispute.status} />
                  <span className="hidden text-xs text-slate-500 sm:inline">{dispute.reason}</span>
                </span>
              </td>
              <td className="hidden max-w-[11rem] px-3 py-2.5 md:table-cell">
                <PaymentLink paymentId={dispute.paymentId} merchantPaymentId={dispute.merchantPaymentId} none="not one of ours" />
              </td>
              <td className="hidden max-w-[10rem] truncate px-3 py-2.5 lg:table-cell">{dispute.accountName ?? "—"}</td>
              <td className="hidden whitespace-nowrap px-3 py-2.5 tabular-nums text-slate-600 sm:pr-6 lg:table-cell">{dispute.openedOn}</td>
            </tr>
          ))}
        </DataTable>
      </ListCard>
    </>
  );
}
