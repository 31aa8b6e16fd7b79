// What the back office's list filters (payments, Developers pages) share as they travel in the page URL: blank fields dropped,
// calendar dates checked, the keyset cursor of a newest-first list (createdAt, id) and the parsing
// that reports a bad field instead of throwing (a hand-edited URL still shows the page).
import { z } from "zod";
import type { Mode } from "../mode";

/** A blank text field means no filter. */
export const blank = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** A filter field that may be absent or blank. */
export const optionalField = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

/** A calendar date that exists (2024-13-45 matches the pattern but is no date). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use the date picker (YYYY-MM-DD)")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "Use the date picker (YYYY-MM-DD)");

/** The From and To fields of a filter schema: whole UTC days, both optional. */
export const dayRangeFields = { from: optionalField(isoDate), to: optionalField(isoDate) };

/** `from` and `to` as whole UTC days, `to` included. */
export function createdAtRange(from?: string, to?: string): { gte?: Date; lt?: Date } | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
    ...(to ? { lt: new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000) } : {}),
  };
}

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(row: Cursor): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

/** An unreadable cursor is ignored (the first page), never an error. */
export function decodeCursor(value: string | undefined): Cursor | undefined {
  if (!value || value.length > 200) return undefined;
  const [iso, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : undefined;
}

/** What a Developers list is asked for: one merchant's rows of one mode, filtered, older than a cursor. */
export interface NewestFirstQuery<Filters> {
  merchantId: string;
  mode: Mode;
  filters?: Filters;
  after?: string;
}

/** The order of a newest-first list, ties broken by id so that a cursor is exact. */
export const NEWEST_FIRST = [{ createdAt: "desc" }, { id: "desc" }] satisfies { createdAt?: "desc"; id?: "desc" }[];

/**
 * One page of a newest-first list read with `take: size + 1`: the first `size` rows, and the cursor
 * of the next page when the extra row says there is one.
 */
export function newestFirstPage<Row extends Cursor>(found: Row[], size: number): { rows: Row[]; next?: string } {
  const rows = found.slice(0, size);
  const last = rows[rows.length - 1];
  return { rows, next: found.length > size && last ? encodeCursor(last) : undefined };
}

/** Rows strictly older than the cursor in (createdAt desc, id desc) order. */
export function olderThan(cursor: Cursor | undefined) {
  return cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {};
}

/** A page's search params as Next.js gives them: a key given twice is an array. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a search param (a hand-edited URL may repeat one). */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Parses the schema's keys from search params; invalid fields are dropped and reported, never thrown. */
export function parseFilters<S extends z.ZodObject>(
  schema: S,
  params: SearchParams,
): { filters: z.infer<S>; errors: Partial<Record<string, string>> } {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    raw[key] = firstValue(params[key]);
  }
  const errors: Partial<Record<string, string>> = {};
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { filters: parsed.data, errors };
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0]);
    errors[key] ??= issue.message;
    delete raw[key];
  }
  return { filters: schema.parse(raw), errors };
}

/** Filters back to URL parameters, for page links that keep them. */
export function filtersToSearchParams(filters: Record<string, string | number | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== "") params.set(key, String(value));
  return params;
}

/**
 * What a filtered, newest-first list page reads from its address: the filters (and the fields that
 * were refused), the filters again as the query its links keep, whether any applies, each field as
 * typed (a refused one is shown again to be fixed) and the page's cursors.
 */
export function readListQuery<F>(
  params: SearchParams,
  parse: (params: SearchParams) => { filters: F; errors: Partial<Record<string, string>> },
  toSearchParams: (filters: F) => URLSearchParams,
) {
  const { filters, errors } = parse(params);
  const filterQuery = toSearchParams(filters);
  return {
    filters,
    errors,
    filterQuery,
    filtered: filterQuery.toString() !== "",
    raw: (key: string) => firstValue(params[key]) ?? "",
    after: firstValue(params.after),
    before: firstValue(params.before),
  };
}
