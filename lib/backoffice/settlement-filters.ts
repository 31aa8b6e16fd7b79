// The Settlements page's filter from the address: one acquirer account (or all).
import { z } from "zod";
import { filtersToSearchParams, optionalField, parseFilters, type SearchParams } from "./log-filters";

export const settlementFiltersSchema = z.object({
  account: optionalField(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Choose an account from the list")),
});

export type SettlementFilters = z.infer<typeof settlementFiltersSchema>;

export function parseSettlementFilters(params: SearchParams) {
  return parseFilters(settlementFiltersSchema, params);
}

export function settlementFiltersToSearchParams(filters: SettlementFilters): URLSearchParams {
  return filtersToSearchParams(filters);
}
