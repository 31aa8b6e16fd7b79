// Developers > API requests: the merchant's API request log with filters (as Stripe's Logs).
import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { filtersToSearchParams, readListQuery, type SearchParams } from "@/lib/backoffice/log-filters";
import { API_ERROR_CODES, STATUS_CLASSES, listApiRequests, parseApiRequestFilters } from "@/lib/backoffice/queries/list-api-requests";
import { PageHeader } from "@/components/ui/card";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { DataTable, DateRangeFields, FilterCard, ListCard, OlderPager, type Column } from "@/components/backoffice/list-parts";
import { SelectField, TextField } from "@/components/ui/field";
import { HttpStatusBadge } from "@/components/backoffice/http-status-badge";
import { formatDateTime } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "API requests" };
export const dynamic = "force-dynamic";

const PATH = "/backoffice/developers/logs";

const COLUMNS: Column[] = [
  { label: "Status", className: "sm:px-6" },
  { label: "Request" },
  { label: "Error", from: "md" },
  { label: "TraceApi", from: "lg" },
  { label: "Duration", from: "md", align: "right" },
  { label: "Time (UTC)", className: "sm:pr-6" },
];

export default async function ApiRequestsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { filters, errors, filterQuery, filtered, raw, after } = readListQuery(await searchParams, parseApiRequestFilters, filtersToSearchParams);
  const page = await listApiRequests({ merchantId: user.merchantId, mode: user.mode, filters, after });

  return (
    <>
      <PageHeader title="API requests" description="Every merchant-API request made with this account's keys, newest first, with its answer. Open a request for its details and notifications." />
      <FilterCard action={PATH} search label="Filter API requests" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField id="status" label="Status" defaultValue={raw("status")} error={errors.status} options={[{ value: "", label: "Any status" }, ...STATUS_CLASSES.map((value) => ({ value, label: value }))]} />
        <SelectField id="method" label="Method" defaultValue={raw("method")} error={errors.method} options={[{ value: "", label: "Any method" }, { value: "GET", label: "GET" }, { value: "POST", label: "POST" }]} />
        <TextField id="path" label="Path contains" placeholder="/capture" defaultValue={raw("path")} error={errors.path} />
        <SelectField id="errorCode" label="Error code" defaultValue={raw("errorCode")} error={errors.errorCode} options={[{ value: "", label: "Any" }, ...API_ERROR_CODES.map((value) => ({ value, label: value }))]} />
        <TextField id="traceApi" label="TraceApi" placeholder="the header's value" defaultValue={raw("traceApi")} error={errors.traceApi} />
        <DateRangeFields from={raw("from")} to={raw("to")} errors={errors} />
        <FilterFormActions clearHref={PATH} filtered={filtered} />
      </FilterCard>

      <ListCard empty={page.rows.length === 0} emptyText={filtered ? "No requests match these filters." : "No API requests yet."} footer={<OlderPager path={PATH} filters={filterQuery} next={page.next} />}>
        <DataTable label="API requests" columns={COLUMNS}>
          {page.rows.map((row) => (
            <tr key={row.id} className="hover:bg-slate-50" data-testid="api-request-row">
              <td className="px-4 py-2.5 sm:px-6">
                <HttpStatusBadge status={row.statusCode} />
              </td>
              <td className="max-w-[16rem] px-4 py-2.5">
                <Link href={`/backoffice/developers/logs/${row.id}`} className="block truncate font-mono text-xs font-medium text-indigo-700 hover:underline">
                  {row.method} {row.path}
                </Link>
                {row.errorCode ? <span className="block text-xs text-amber-800 md:hidden">{row.errorCode}</span> : null}
                {row.idempotentReplay ? <span className="block text-xs text-slate-500">idempotent replay</span> : null}
              </td>
              <td className="hidden px-4 py-2.5 font-mono text-xs md:table-cell">{row.errorCode ?? "—"}</td>
              <td className="hidden max-w-[12rem] truncate px-4 py-2.5 font-mono text-xs lg:table-cell" title={row.traceApi ?? undefined}>
                {row.traceApi ?? "—"}
              </td>
              <td className="hidden whitespace-nowrap px-4 py-2.5 text-right tabular-nums md:table-cell">{row.durationMs} ms</td>
              <td className="whitespace-nowrap px-4 py-2.5 text-slate-600 sm:pr-6">{formatDateTime(row.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      </ListCard>
    </>
  );
}
