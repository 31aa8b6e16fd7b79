// The request and answer bodies kept in the API request log (Developers → API requests), with card
// data masked as everywhere: values under the keys the logger censors (lib/observability/logger.ts)
// are replaced, and every string or number goes through the one masker of card-number-like digits
// (lib/cards/redact-card-numbers.ts). The merchant API never asks for a card number, so a number
// here is a mistake (a PAN typed into `reference`), and the log must not keep it. Our own date-times
// ("2026-11-21 08:32:37") and the merchant's own id (12 digits) are kept as they are whatever the
// masker would say, and so are JSON numbers under 12 digits (amounts; no card number is that short).
// A body that is not JSON is masked as text. Cut at MAX_LOGGED_BODY.
import { redactCardNumbers } from "../cards/redact-card-numbers";
import { REDACTED_KEYS } from "../observability/logger";

export const MAX_LOGGED_BODY = 8 * 1024;

const CENSORED = new Set<string>(REDACTED_KEYS);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Values known not to be card data (the authenticated merchant's id), kept as they are. */
export interface MaskOptions {
  keep?: readonly string[];
}

function maskValue(value: unknown, depth: number, keep: ReadonlySet<string>): unknown {
  if (typeof value === "string") return DATE_TIME.test(value) || keep.has(value) ? value : redactCardNumbers(value);
  if (typeof value === "number") {
    const text = String(value);
    if (keep.has(text) || !/^\d{12,}$/.test(text.replace(/^-/, ""))) return value;
    return redactCardNumbers(text);
  }
  if (value === null || typeof value !== "object") return value;
  // Deeper than any body of the API: nothing below is kept.
  if (depth > 8) return "[nested too deep]";
  if (Array.isArray(value)) return value.map((item) => maskValue(item, depth + 1, keep));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactCardNumbers(key), CENSORED.has(key) ? "[redacted]" : maskValue(item, depth + 1, keep)]));
}

function cut(text: string): string {
  return text.length <= MAX_LOGGED_BODY ? text : `${text.slice(0, MAX_LOGGED_BODY)}… (cut at ${MAX_LOGGED_BODY} characters)`;
}

/** A parsed body (or query parameters) as masked JSON text for the log. */
export function maskLoggedValue(value: unknown, { keep = [] }: MaskOptions = {}): string {
  return cut(JSON.stringify(maskValue(value, 0, new Set(keep))) ?? "null");
}

/** A body as sent or answered (text): masked JSON when it parses, else masked text; null when empty. */
export function maskLoggedBody(text: string | undefined | null, options: MaskOptions = {}): string | null {
  if (text === undefined || text === null || text.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return cut(redactCardNumbers(text));
  }
  return maskLoggedValue(parsed, options);
}
