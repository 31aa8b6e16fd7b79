// Developers > API requests: the merchant's API request log with filters (as Stripe's Logs).
import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { filtersToSearchParams } from "@/lib/backoffice/log-filters";
import { API_ERROR_CODES, STATUS_CLASSES, listApiRequests, parseApiRequestFilters } from "@/lib/backoffice/queries/list-api-requests";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { SelectField, TextField } from "@/components/ui/field";
import { HttpStatusBadge } from "@/components/backoffice/http-status-badge";
import { formatDateTime } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "API requests" };
export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function ApiRequestsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const params = await searchParams;
  const { filters, errors } = parseApiRequestFilters(params);
  const page = await listApiRequests({ merchantId: user.merchantId, mode: user.mode, filters, after: one(params.after) });
  const base = filtersToSearchParams(filters);
  const filtered = base.toString() !== "";
  const older = page.next ? `/backoffice/developers/logs?${new URLSearchParams([...base, ["after", page.next]]).toString()}` : undefined;
  const raw = (key: string) => one(params[key]) ?? "";

  return (
    <>
      <PageHeader
        title="API requests"
        description="Every merchant-API request made with this account's keys, newest first, with its answer. Open a request for its details and notifications."
      />
      <Card className="mb-6">
        <form method="get" action="/backoffice/developers/logs" role="search" aria-label="Filter API requests" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField id="status" label="Status" defaultValue={raw("status")} error={errors.status} options={[{ value: "", label: "Any status" }, ...STATUS_CLASSES.map((value) => ({ value, label: value }))]} />
          <SelectField id="method" label="Method" defaultValue={raw("method")} error={errors.method} options={[{ value: "", label: "Any method" }, { value: "GET", label: "GET" }, { value: "POST", label: "POST" }]} />
          <TextField id="path" label="Path contains" placeholder="/capture" defaultValue={raw("path")} error={errors.path} />
          <SelectField id="errorCode" label="Error code" defaultValue={raw("errorCode")} error={errors.errorCode} options={[{ value: "", label: "Any" }, ...API_ERROR_CODES.map((value) => ({ value, label: value }))]} />
          <TextField id="traceApi" label="TraceApi" placeholder="the header's value" defaultValue={raw("traceApi")} error={errors.traceApi} />
          <TextField id="from" label="From (UTC)" type="date" defaultValue={raw("from")} error={errors.from} />
          <TextField id="to" label="To (UTC)" type="date" defaultValue={raw("to")} error={errors.to} />
          <FilterFormActions clearHref="/backoffice/developers/logs" filtered={filtered} />
        </form>
      </Card>

      <Card>
        {page.rows.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-600">{filtered ? "No requests match these filters." : "No API requests yet."}</p>
        ) : (
          <div className="-mx-4 overflow-x-auto sm:-mx-6">
            <table className="min-w-full text-sm" aria-label="API requests">
              <thead className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 sm:px-6">Status</th>
                  <th scope="col" className="px-4 py-2">Request</th>
                  <th scope="col" className="hidden px-4 py-2 md:table-cell">Error</th>
                  <th scope="col" className="hidden px-4 py-2 lg:table-cell">TraceApi</th>
                  <th scope="col" className="hidden px-4 py-2 text-right md:table-cell">Duration</th>
                  <th scope="col" className="px-4 py-2 sm:pr-6">Time (UTC)</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
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
              </tbody>
            </table>
          </div>
        )}
        {older ? (
          <nav aria-label="Pages" className="mt-4 flex justify-between border-t border-slate-200 pt-4">
            <Link className={buttonClass("ghost")} href={`/backoffice/developers/logs?${base.toString()}`}>
              Newest
            </Link>
            <Link className={buttonClass("secondary")} href={older} rel="next">
              Older →
            </Link>
          </nav>
        ) : null}
      </Card>
    </>
  );
}
