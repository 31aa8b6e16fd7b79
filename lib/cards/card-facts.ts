// What the service tells about a card without revealing it: scheme, funding, segment, issuer,
// truncated number, last 4, expiry and PAR.
import type { CardDetails } from "./card-details";
import { lookupBin, type CardFunding, type CardSegment } from "./bin-table";
import type { CardScheme } from "./card-scheme";
import { derivePar } from "./par";
import { truncateCardNumber } from "./truncate-card-number";
import { formatExpiryDate } from "./card-expiry";

export interface CardFacts {
  scheme: CardScheme | undefined;
  funding?: CardFunding;
  segment?: CardSegment;
  issuer?: string;
  country?: string;
  bin: string;
  last4: string;
  /** 6 digits, x's, 4 digits. */
  tcardnumber: string;
  /** MM/YYYY. */
  expiryDate: string;
  par?: string;
}

export interface CardFactsOptions {
  card: CardDetails;
  /** The key under which the gateway derives PARs (omit to leave `par` empty). */
  parKey?: string;
}

export function cardFacts({ card, parKey }: CardFactsOptions): CardFacts {
  const pan = card.revealPan();
  const bin = lookupBin(pan);
  return {
    scheme: bin?.scheme,
    funding: bin?.funding,
    segment: bin?.segment,
    issuer: bin?.issuer,
    country: bin?.country,
    bin: pan.slice(0, 6),
    last4: pan.slice(-4),
    tcardnumber: truncateCardNumber(pan),
    expiryDate: formatExpiryDate(card),
    par: bin && parKey ? derivePar({ pan, scheme: bin.scheme, key: parKey }) : undefined,
  };
}
