// The overview's date range as it travels in the page URL (?from=2026-10-01&to=2026-10-31): whole
// UTC days, both ends included, as the payments list's date filters, so the list filtered by the
// same dates shows the payments behind the figures. Without dates: the last 30 days. A bad value is
// reported on its field and the default applies, as the list filters do.
import { z } from "zod";
import { isoDate, optionalField, parseFilters } from "./log-filters";
import { lastDays, type DayRange } from "./queries/overview-stats";

export const DEFAULT_OVERVIEW_DAYS = 30;
/** A year and a day: every day is a column of the charts. */
export const MAX_OVERVIEW_DAYS = 366;

const overviewRangeSchema = z.object({ from: optionalField(isoDate), to: optionalField(isoDate) });

const DAY_MS = 86_400_000;
const shift = (day: string, days: number) => new Date(new Date(`${day}T00:00:00Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);

export function parseOverviewRange(params: Record<string, string | string[] | undefined>, now = new Date()): { range: DayRange; chosen: boolean; errors: Partial<Record<"from" | "to", string>> } {
  const { filters, errors } = parseFilters(overviewRangeSchema, params);
  const fallback = lastDays(DEFAULT_OVERVIEW_DAYS, now);
  if (!filters.from && !filters.to) return { range: fallback, chosen: false, errors };
  const to = filters.to ?? (filters.from && filters.from > fallback.to ? filters.from : fallback.to);
  const from = filters.from ?? shift(to, -(DEFAULT_OVERVIEW_DAYS - 1));
  if (from > to) return { range: fallback, chosen: false, errors: { ...errors, to: "The end date is before the start date" } };
  if (Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1 > MAX_OVERVIEW_DAYS) {
    return { range: fallback, chosen: false, errors: { ...errors, from: `Choose at most ${MAX_OVERVIEW_DAYS} days` } };
  }
  return { range: { from, to }, chosen: true, errors };
}
