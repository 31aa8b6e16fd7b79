// Card expiry: a card is valid through the last day of its expiry month.

export interface CardExpiry {
  expMonth: number;
  /** Four digits. */
  expYear: number;
}

/** True once the expiry month has passed (UTC; a card expiring this month is still valid). */
export function isCardExpired({ expMonth, expYear }: CardExpiry, now: Date = new Date()): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expYear < year || (expYear === year && expMonth < month);
}

/** Two-digit years are read as 20YY. */
export function normalizeExpiryYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

/** The spec's `Expiry date`: MM/YYYY. */
export function formatExpiryDate({ expMonth, expYear }: CardExpiry): string {
  return `${String(expMonth).padStart(2, "0")}/${expYear}`;
}
