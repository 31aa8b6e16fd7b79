// The payments list's search and filters as they travel in the page URL (so a filtered view can be
// bookmarked, shared and exported), parsed with zod at the boundary.
import { z } from "zod";
import { Processor } from "../generated/prisma/enums";
import { DISPLAY_STATES } from "../payments/derive-display-state";
import { blank, isoDate, optionalField as optional } from "./log-filters";

/** A money amount typed in major units ("12.50") becomes minor units; the list filters on minor units. */
const majorUnits = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, "Enter an amount such as 12.50")
  .transform((value) => {
    const [whole, fraction = ""] = value.split(".");
    return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0"));
  });

export const SCHEMES = ["visa", "mastercard", "amex"] as const;

export const paymentFiltersSchema = z.object({
  q: optional(z.string().trim().max(64)),
  /** A displayed state (lib/payments/derive-display-state.ts); older links used the stored status in capitals. */
  status: z.preprocess((value) => (typeof value === "string" ? blank(value.trim().toLowerCase()) : value), z.enum(DISPLAY_STATES).optional()),
  processor: optional(z.enum(Object.values(Processor) as [Processor, ...Processor[]])),
  scheme: optional(z.enum(SCHEMES)),
  from: optional(isoDate),
  to: optional(isoDate),
  minAmount: optional(majorUnits),
  maxAmount: optional(majorUnits),
  currency: optional(z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, "Use a three-letter currency code")),
});

export type PaymentFilters = z.infer<typeof paymentFiltersSchema>;

export const FILTER_KEYS = ["q", "status", "processor", "scheme", "from", "to", "minAmount", "maxAmount", "currency"] as const;

/** Parses the filters from search params; invalid fields are dropped and reported, never thrown. */
export function parsePaymentFilters(params: Record<string, string | string[] | undefined>): { filters: PaymentFilters; errors: Partial<Record<keyof PaymentFilters, string>> } {
  const raw: Record<string, string | undefined> = {};
  for (const key of FILTER_KEYS) {
    const value = params[key];
    raw[key] = Array.isArray(value) ? value[0] : value;
  }
  const errors: Partial<Record<keyof PaymentFilters, string>> = {};
  const parsed = paymentFiltersSchema.safeParse(raw);
  if (parsed.success) return { filters: parsed.data, errors };
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof PaymentFilters;
    errors[key] ??= issue.message;
    delete raw[key];
  }
  return { filters: paymentFiltersSchema.parse(raw), errors };
}

/** Filters back to URL parameters (amounts in major units again). */
export function filtersToSearchParams(filters: PaymentFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined) continue;
    if (typeof value === "bigint") {
      const whole = value / 100n;
      const cents = value % 100n;
      params.set(key, cents === 0n ? whole.toString() : `${whole}.${cents.toString().padStart(2, "0")}`);
    } else params.set(key, String(value));
  }
  return params;
}
