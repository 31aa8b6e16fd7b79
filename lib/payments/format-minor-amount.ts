// 150000 DKK minor units as "1500.00 DKK": the one formatter of a minor-unit amount with its currency
// for refusal texts and settings (lib/validation/currency.ts knows the exponents).
import { currencyExponent, isCurrencyCode } from "../validation/currency";

export function formatMinorAmount(amount: bigint, currency: string): string {
  const exponent = isCurrencyCode(currency) ? currencyExponent(currency) : 2;
  if (exponent === 0) return `${amount} ${currency}`;
  const text = amount.toString().padStart(exponent + 1, "0");
  return `${text.slice(0, -exponent)}.${text.slice(-exponent)} ${currency}`;
}
