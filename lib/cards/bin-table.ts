// The BIN table shipped with the sandboxes: card ranges and what the schemes' range files say about
// them (funding, segment, issuer, country). Longest matching prefix wins. Real deployments would load
// a scheme or BIN-service range file into the same shape.
import { schemeFromPan, type CardScheme } from "./card-scheme";

export type CardFunding = "credit" | "debit" | "prepaid" | "charge" | "defereddebit";
export type CardSegment = "consumer" | "business" | "commercial" | "government" | "other";

export interface BinRange {
  /** 6 to 8 leading digits. */
  prefix: string;
  scheme: CardScheme;
  funding: CardFunding;
  segment: CardSegment;
  issuer: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export const BIN_TABLE: readonly BinRange[] = [
  { prefix: "411111", scheme: "visa", funding: "credit", segment: "consumer", issuer: "Sandbox Bank A/S", country: "DK" },
  { prefix: "400000", scheme: "visa", funding: "debit", segment: "consumer", issuer: "Test Issuer Bank", country: "DK" },
  { prefix: "40000566", scheme: "visa", funding: "debit", segment: "business", issuer: "Test Issuer Bank", country: "DK" },
  { prefix: "400005", scheme: "visa", funding: "prepaid", segment: "consumer", issuer: "Prepaid Card Co", country: "SE" },
  { prefix: "448400", scheme: "visa", funding: "credit", segment: "government", issuer: "Public Sector Card Bank", country: "NO" },
  { prefix: "555555", scheme: "mastercard", funding: "credit", segment: "consumer", issuer: "Sandbox Bank A/S", country: "DK" },
  { prefix: "520082", scheme: "mastercard", funding: "debit", segment: "consumer", issuer: "Nordic Savings Bank", country: "SE" },
  { prefix: "510510", scheme: "mastercard", funding: "prepaid", segment: "consumer", issuer: "Prepaid Card Co", country: "DK" },
  { prefix: "222300", scheme: "mastercard", funding: "credit", segment: "commercial", issuer: "Corporate Card Bank", country: "DE" },
  { prefix: "378282", scheme: "amex", funding: "charge", segment: "consumer", issuer: "American Express", country: "US" },
  { prefix: "371449", scheme: "amex", funding: "credit", segment: "business", issuer: "American Express", country: "US" },
];

export interface BinFacts {
  scheme: CardScheme;
  funding?: CardFunding;
  segment?: CardSegment;
  issuer?: string;
  country?: string;
}

/** What the BIN table knows about a card number; the scheme alone when no range matches. */
export function lookupBin(pan: string): BinFacts | undefined {
  let best: BinRange | undefined;
  for (const range of BIN_TABLE) {
    if (pan.startsWith(range.prefix) && (!best || range.prefix.length > best.prefix.length)) best = range;
  }
  if (best) return { scheme: best.scheme, funding: best.funding, segment: best.segment, issuer: best.issuer, country: best.country };
  const scheme = schemeFromPan(pan);
  return scheme ? { scheme } : undefined;
}
