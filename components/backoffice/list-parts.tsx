// The pieces the back office's lists share (payments, audit log, Developers pages, the overview's
// tables): the filter card with its GET form, the date range fields, the card holding a list or the
// words of an empty one, a table that scrolls inside its card, and the paging of a newest-first list.
import type { ReactNode } from "react";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";

/** A GET form in its own card: the filters live in the address, so a view can be bookmarked and shared. */
export function FilterCard({
  action,
  label,
  search = false,
  className,
  children,
}: {
  action: string;
  label: string;
  /** Announced as a search landmark (the lists); the overview's period form is none. */
  search?: boolean;
  className: string;
  children: ReactNode;
}) {
  return (
    <Card className="mb-6">
      <form method="get" action={action} role={search ? "search" : undefined} aria-label={label} className={className}>
        {children}
      </form>
    </Card>
  );
}

/** The From and To date pickers of a filter, whole UTC days. */
export function DateRangeFields({
  from,
  to,
  errors,
  idPrefix = "",
}: {
  from: string;
  to: string;
  errors: Partial<Record<"from" | "to", string>>;
  /** Put before the ids ("audit-" gives audit-from) where the page has other fields of those names. */
  idPrefix?: string;
}) {
  return (
    <>
      <TextField id={`${idPrefix}from`} name="from" label="From (UTC)" type="date" defaultValue={from} error={errors.from} />
      <TextField id={`${idPrefix}to`} name="to" label="To (UTC)" type="date" defaultValue={to} error={errors.to} />
    </>
  );
}

/** A card holding a list, or the words saying it is empty; `footer` (the paging) comes under either. */
export function ListCard({ empty, emptyText, footer, children }: { empty: boolean; emptyText: string; footer?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      {empty ? <p className="py-8 text-center text-sm text-slate-600">{emptyText}</p> : children}
      {footer}
    </Card>
  );
}

const SHOWN_FROM = { md: "md:table-cell", lg: "lg:table-cell", xl: "xl:table-cell" } as const;

export interface Column {
  label: ReactNode;
  /** The column is hidden on narrower screens than this (its cells carry the same classes). */
  from?: keyof typeof SHOWN_FROM;
  align?: "right";
  /** More classes, such as the padding of the first and last column. */
  className?: string;
}

function headerClass(column: Column, padding: string): string {
  return [column.from ? "hidden" : "", padding, "py-2", column.align === "right" ? "text-right" : "", column.from ? SHOWN_FROM[column.from] : "", column.className ?? ""]
    .filter(Boolean)
    .join(" ");
}

/** A table that scrolls sideways inside its card on a narrow screen; `children` are its body's rows. */
export function DataTable({
  label,
  columns,
  compact = false,
  ruled = true,
  children,
}: {
  label: string;
  columns: Column[];
  /** Narrower cells (px-3 instead of px-4), for the widest lists. */
  compact?: boolean;
  /** A line under the header row (the lists; the overview's tables have none). */
  ruled?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="-mx-4 overflow-x-auto sm:-mx-6">
      <table className="min-w-full text-sm" aria-label={label}>
        <thead className={ruled ? "border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500" : "text-left text-xs uppercase tracking-wide text-slate-500"}>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={headerClass(column, compact ? "px-3" : "px-4")}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** The paging of a newest-first list that pages backwards only: back to the newest, and on to older rows. */
export function OlderPager({ path, filters, next }: { path: string; filters: URLSearchParams; next?: string }) {
  if (!next) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex justify-between border-t border-slate-200 pt-4">
      <Link className={buttonClass("ghost")} href={`${path}?${filters.toString()}`}>
        Newest
      </Link>
      <Link className={buttonClass("secondary")} href={`${path}?${new URLSearchParams([...filters, ["after", next]]).toString()}`} rel="next">
        Older →
      </Link>
    </nav>
  );
}
