// Display formatting for the back office. Amounts arrive as integers of minor units.
import { currencyExponent, isCurrencyCode } from "@/lib/validation/currency";

export function formatMoney(minor: bigint | number, currency: string): string {
  const exponent = isCurrencyCode(currency) ? currencyExponent(currency) : 2;
  const value = typeof minor === "bigint" ? minor : BigInt(minor);
  const negative = value < 0n;
  const absolute = negative ? -value : value;
  const divisor = 10n ** BigInt(exponent);
  const whole = (absolute / divisor).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = exponent > 0 ? `.${(absolute % divisor).toString().padStart(exponent, "0")}` : "";
  return `${negative ? "-" : ""}${whole}${fraction} ${currency}`;
}

/** UTC, as the API's timestamps are: 2026-11-21 08:32:37. */
export function formatDateTime(date: Date | null | undefined): string {
  if (!date) return "—";
  return date.toISOString().replace("T", " ").slice(0, 19);
}

export function formatRelative(date: Date | null | undefined, now = new Date()): string {
  if (!date) return "never";
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const future = seconds < 0;
  const abs = Math.abs(seconds);
  const [value, unit] = abs < 60 ? [abs, "s"] : abs < 3600 ? [Math.round(abs / 60), "min"] : abs < 86400 ? [Math.round(abs / 3600), "h"] : [Math.round(abs / 86400), "d"];
  return future ? `in ${value} ${unit}` : `${value} ${unit} ago`;
}

export function percent(part: number, whole: number): string {
  if (whole === 0) return "—";
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** A payment's amount as the merchant's books see it: a payout is money sent out, shown negative. */
export function formatPaymentAmount(payment: { amount: bigint; currency: string; paymentType: string }): string {
  return formatMoney(payment.paymentType === "payout" ? -payment.amount : payment.amount, payment.currency);
}
