// What the fields do with what the cardholder types: digits only, grouping as printed on the card,
// and the checks (scheme, length, Luhn, expiry). Pure and browser-safe: the frames bundle it, and the
// server uses the same rules when the values arrive. The rules themselves live in lib/cards.
import { isLuhnValid } from "../cards/luhn";
import { hasSchemeLength, schemeFromPan, securityCodeLength, type CardScheme } from "../cards/card-scheme";
import { isCardExpired, normalizeExpiryYear } from "../cards/card-expiry";

export type { CardScheme };

export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, "");
}

export const MAX_PAN_DIGITS = 19;

/** Groups as printed: amex 4-6-5, everything else in fours. */
export function formatPan(digits: string): string {
  const pan = digits.slice(0, MAX_PAN_DIGITS);
  const groups = schemeFromPan(pan) === "amex" ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let start = 0;
  for (const size of groups) {
    if (start >= pan.length) break;
    parts.push(pan.slice(start, start + size));
    start += size;
  }
  return parts.join(" ");
}

export function panScheme(digits: string): CardScheme | undefined {
  return digits.length >= 1 ? schemeFromPan(digits) : undefined;
}

/** The longest number the scheme issues: the field stops taking digits there. */
export function maxPanLength(digits: string): number {
  const scheme = panScheme(digits);
  if (scheme === "amex") return 15;
  if (scheme === "mastercard") return 16;
  return MAX_PAN_DIGITS;
}

export function isPanValid(digits: string): boolean {
  const scheme = schemeFromPan(digits);
  return scheme !== undefined && hasSchemeLength(digits, scheme) && isLuhnValid(digits);
}

/** Complete as far as typing goes (the field may then move the focus on). */
export function isPanComplete(digits: string): boolean {
  return digits.length >= maxPanLength(digits) || (digits.length === 16 && isPanValid(digits));
}

export function parseMonth(value: string): number | undefined {
  const digits = digitsOnly(value);
  if (digits.length === 0 || digits.length > 2) return undefined;
  const month = Number(digits);
  return month >= 1 && month <= 12 ? month : undefined;
}

/** Two or four digits; two-digit years are 20YY. */
export function parseYear(value: string): number | undefined {
  const digits = digitsOnly(value);
  if (digits.length !== 2 && digits.length !== 4) return undefined;
  const year = normalizeExpiryYear(Number(digits));
  return year >= 2000 && year <= 2099 ? year : undefined;
}

/** "MM / YY" as typed or autofilled into the single strip ("1/27", "01/2027", "0127"). */
export function parseExpiry(value: string): { month?: number; year?: number } {
  const match = /^\s*(\d{1,2})\s*[/\-. ]?\s*(\d{2}|\d{4})?\s*$/.exec(value.replace(/\s*\/\s*/, "/"));
  if (!match) return {};
  const digits = digitsOnly(value);
  // Without a separator, "0127" is month 01 and year 27.
  if (!/[/\-. ]/.test(value.trim()) && digits.length >= 3) {
    return { month: parseMonth(digits.slice(0, 2)), year: parseYear(digits.slice(2)) };
  }
  return { month: match[1] ? parseMonth(match[1]) : undefined, year: match[2] ? parseYear(match[2]) : undefined };
}

/** "MM / YY" as the cardholder types: the slash appears after the month. */
export function formatExpiry(value: string, deleting: boolean): string {
  // Autofill may bring a four-digit year ("12/2030"); the field shows two.
  const withFullYear = /^\s*(\d{1,2})\s*[/\-. ]+\s*(\d{4})\s*$/.exec(value);
  let digits = withFullYear ? `${withFullYear[1]!.padStart(2, "0")}${withFullYear[2]!.slice(2)}` : digitsOnly(value).slice(0, 4);
  // A first digit of 2-9 can only be a month 02-09.
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export function isExpiryValid(month: number | undefined, year: number | undefined, now: Date = new Date()): boolean {
  return month !== undefined && year !== undefined && !isCardExpired({ expMonth: month, expYear: year }, now);
}

export function expectedSecurityCodeLength(scheme: CardScheme | undefined): number {
  return scheme ? securityCodeLength(scheme) : 3;
}

export function isSecurityCodeValid(digits: string, scheme: CardScheme | undefined): boolean {
  return scheme ? digits.length === securityCodeLength(scheme) : /^\d{3,4}$/.test(digits);
}
