// An audit entry's details in words for the audit log (newcomer review, minors): a change shows what
// it was and what it became ("Default notification URL: https://a → https://b", not "Changed
// notification URLs"), and an amount is shown in major units with its currency ("5.00 EUR", not
// "amount: 500"). Entries written before amounts carried their currency show the stored value.
import { NOTIFICATION_URL_LABELS } from "@/lib/backoffice/notification-url";
import { refundReasonLabel } from "@/lib/backoffice/refund-reasons";
import { formatMoney } from "./format";

type Details = Record<string, unknown>;

const FIELD_LABELS: Record<string, string> = Object.fromEntries(Object.entries(NOTIFICATION_URL_LABELS).map(([key, { label }]) => [key, label]));

function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(none)";
  if (Array.isArray(value)) return value.length === 0 ? "(none)" : value.map(shown).join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const isRecord = (value: unknown): value is Details => value !== null && typeof value === "object" && !Array.isArray(value);

/** "label: before → after" for each field that changed between two objects. */
function changes(before: Details, after: Details): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = keys.filter((key) => shown(before[key]) !== shown(after[key]));
  if (changed.length === 0) return ["nothing changed"];
  return changed.map((key) => `${FIELD_LABELS[key] ?? key}: ${shown(before[key])} → ${shown(after[key])}`);
}

export function describeAuditDetails(details: unknown): string {
  if (!isRecord(details)) return "";
  const parts: string[] = [];
  const { before, after, from, to, amount, currency, reason, ...rest } = details;
  if (isRecord(before) && isRecord(after)) parts.push(...changes(before, after));
  else if (before !== undefined || after !== undefined) parts.push(`${shown(before)} → ${shown(after)}`);
  if (from !== undefined || to !== undefined) parts.push(`${shown(from)} → ${shown(to)}`);
  if (amount !== undefined) {
    const minor = typeof amount === "string" && /^-?\d+$/.test(amount) ? BigInt(amount) : typeof amount === "number" && Number.isInteger(amount) ? BigInt(amount) : undefined;
    parts.push(`amount: ${minor !== undefined && typeof currency === "string" ? formatMoney(minor, currency) : amount === "full" ? "the full amount" : shown(amount)}`);
  }
  if (typeof reason === "string") parts.push(`reason: ${refundReasonLabel(reason)}`);
  for (const [key, value] of Object.entries(rest)) {
    // Nested objects (a hosted integration's styling) are too long for a line.
    if (value === null || value === undefined || typeof value === "object") continue;
    parts.push(`${key}: ${String(value)}`);
  }
  return parts.join(" · ");
}
