// The Disputes page's filters as they come from the address (so a filtered view can be linked):
// a status, a kind and an acquirer account. Invalid values are reported and dropped, never thrown.
import { z } from "zod";
import { DISPUTE_KINDS, DISPUTE_STATUSES, type DisputeKind, type DisputeStatus } from "../acquirers/contract";
import { filtersToSearchParams, optionalField, parseFilters, type SearchParams } from "./log-filters";

export const DISPUTE_STATUS_LABELS: Record<DisputeStatus, string> = {
  open: "Open: to answer",
  "under-review": "Under review",
  refuted: "Refuted",
  accepted: "Accepted",
  won: "Won",
  lost: "Lost",
};

export const DISPUTE_KIND_LABELS: Record<DisputeKind, string> = {
  "retrieval-request": "Retrieval request",
  chargeback: "Chargeback",
  "second-chargeback": "Second chargeback",
};

export const disputeFiltersSchema = z.object({
  status: optionalField(z.enum(DISPUTE_STATUSES, { error: "Choose a status from the list" })),
  kind: optionalField(z.enum(DISPUTE_KINDS, { error: "Choose a kind from the list" })),
  account: optionalField(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Choose an account from the list")),
});

export type DisputeFilters = z.infer<typeof disputeFiltersSchema>;

export function parseDisputeFilters(params: SearchParams) {
  return parseFilters(disputeFiltersSchema, params);
}

export function disputeFiltersToSearchParams(filters: DisputeFilters): URLSearchParams {
  return filtersToSearchParams(filters);
}
