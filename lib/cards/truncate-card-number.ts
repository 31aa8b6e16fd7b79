// The spec's truncated card number: the first 6 digits, x for each hidden digit (at least 4), the last 4.

export function truncateCardNumber(pan: string): string {
  const hidden = Math.max(4, pan.length - 10);
  return `${pan.slice(0, 6)}${"x".repeat(hidden)}${pan.slice(-4)}`;
}
