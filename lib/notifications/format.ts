// Value formats of the notification bodies (spec 2.2, 2.3, 6.2): UTC times as
// "YYYY-MM-DD HH:MM:SS", expiry as "MM/YYYY", operation amounts as strings (truncated card numbers:
// lib/cards/truncate-card-number.ts, the one masked form).

export function formatUtcTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

export function formatExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, "0")}/${year}`;
}

/** ECI is a number of 0 to 2 digits "that may be empty": a number when known, else "". */
export function eciValue(eci: string | null | undefined): number | "" {
  return eci && /^\d{1,2}$/.test(eci) ? Number(eci) : "";
}
