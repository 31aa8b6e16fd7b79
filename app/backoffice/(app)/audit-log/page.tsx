import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { AUDIT_ACTIONS } from "@/lib/audit/audit";
import { listAuditEntries, parseAuditFilters, type AuditFilters } from "@/lib/backoffice/queries/list-audit-entries";
import { listTeam } from "@/lib/backoffice/queries/list-team";
import type { SearchParams } from "@/lib/backoffice/log-filters";
import { Card, PageHeader } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { SelectField } from "@/components/ui/field";
import { DataTable, DateRangeFields, type Column } from "@/components/backoffice/list-parts";
import { formatDateTime } from "@/components/backoffice/format";
import { describeAuditDetails } from "@/components/backoffice/audit-details";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

const ACTION_LABELS: Record<string, string> = AUDIT_ACTIONS;

const COLUMNS: Column[] = [{ label: "When (UTC)", className: "sm:px-6" }, { label: "Who" }, { label: "What" }, { label: "Details", from: "md", className: "sm:pr-6" }];

/** The filters as query parameters, so a filtered view is a link and paging keeps it. */
function filterQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `?${text}` : "";
}

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const params = await searchParams;
  const before = typeof params.before === "string" ? params.before : undefined;
  const { filters, errors } = parseAuditFilters(params);
  const [{ rows, next }, team] = await Promise.all([
    listAuditEntries({ merchantId: user.merchantId, role: user.role, before, filters }),
    listTeam({ merchantId: user.merchantId }),
  ]);
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <PageHeader title="Audit log" description="Who signed in, changed keys and settings or revealed a secret, and when. Newest first." />
      <Card className="mb-6">
        {/* A GET form: the filters live in the address, so the view can be bookmarked and shared. */}
        <form
          method="get"
          action="/backoffice/audit-log"
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          aria-label="Filter the audit log"
        >
          <SelectField id="audit-action" name="action" label="Action" defaultValue={filters.action ?? ""} error={errors.action} options={[{ value: "", label: "All actions" }, ...Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label }))]} />
          <SelectField
            id="audit-user"
            name="user"
            label="User"
            defaultValue={filters.user ?? ""}
            error={errors.user}
            options={[
              { value: "", label: "All users" },
              ...team.map((member) => ({ value: member.id, label: member.email })),
              { value: "system", label: "System / operator" },
            ]}
          />
          <DateRangeFields idPrefix="audit-" from={filters.from ?? ""} to={filters.to ?? ""} errors={errors} />
          <FilterFormActions
            clearHref="/backoffice/audit-log"
            filtered={filtered}
            submitLabel="Filter"
            clearVariant="secondary"
            className="flex gap-2"
          />
        </form>
        {Object.keys(errors).length > 0 ? (
          <div className="mt-4">
            <Alert tone="warning">Some filters were not valid and are not applied: {Object.values(errors).join("; ")}.</Alert>
          </div>
        ) : null}
      </Card>
      <Card>
        {rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">{filtered ? "Nothing matches these filters." : "Nothing recorded yet."}</p>
        ) : (
          <DataTable label="Audit log" columns={COLUMNS}>
            {rows.map((entry) => (
              <tr key={entry.id} data-testid="audit-row">
                <td className="whitespace-nowrap px-4 py-2 text-slate-600 sm:px-6">{formatDateTime(entry.createdAt)}</td>
                <td
                  className="px-4 py-2"
                  title={
                    entry.actorName ? `${entry.actorName}${entry.actorRole ? ` (${entry.actorRole.toLowerCase()})` : ""}` : undefined
                  }
                >
                  {entry.actorEmail ?? entry.actorName ?? "system"}
                </td>
                <td className="px-4 py-2 font-medium">
                  {ACTION_LABELS[entry.action] ?? entry.action}
                  {/* On a phone the details come under the action; from md on they have their column. */}
                  <span className="block break-all text-xs font-normal text-slate-500 md:hidden">{describeAuditDetails(entry.details)}</span>
                </td>
                <td className="hidden max-w-md break-all px-4 py-2 text-xs text-slate-500 md:table-cell sm:pr-6">{describeAuditDetails(entry.details)}</td>
              </tr>
            ))}
          </DataTable>
        )}
        {next ? (
          <div className="mt-4 flex justify-end border-t border-slate-200 pt-4">
            <Link className={buttonClass("secondary")} href={`/backoffice/audit-log${filterQuery(filters, { before: next })}`}>
              Older →
            </Link>
          </div>
        ) : null}
      </Card>
    </>
  );
}
