// The ONE masked form of a card number the service shows anywhere (API answers, notifications,
// CardDetails' string form, the back office): the spec's truncated card number, the first 6 digits,
// an x for each hidden digit (at least 4), the last 4. From a stored card only the BIN and the last
// 4 digits are kept, not the length: then a 16-digit number is assumed (6 x characters).

export type TruncatableCard = string | { bin: string; last4: string; length?: number };

export function truncateCardNumber(card: TruncatableCard): string {
  const { bin, last4, length } = typeof card === "string" ? { bin: card.slice(0, 6), last4: card.slice(-4), length: card.length } : card;
  const hidden = Math.max(4, (length ?? 16) - 10);
  return `${bin.slice(0, 6)}${"x".repeat(hidden)}${last4.slice(-4)}`;
}
