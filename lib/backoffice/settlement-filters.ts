// The Settlements page's filter from the address: one acquirer account (or all).
import type { z } from "zod";
import { disputeFiltersSchema } from "./dispute-filters";
import { filtersToSearchParams, parseFilters, type SearchParams } from "./log-filters";

/** The Disputes page's account filter, the same field. */
export const settlementFiltersSchema = disputeFiltersSchema.pick({ account: true });

export const parseSettlementFilters = (params: SearchParams) => parseFilters(settlementFiltersSchema, params);
export const settlementFiltersToSearchParams = (filters: z.infer<typeof settlementFiltersSchema>) => filtersToSearchParams(filters);
