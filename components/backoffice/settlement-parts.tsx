// Pieces of the Settlements pages: the reconciliation counts, a line's result, and the check that
// the acquirer's net equals its payout plus the reserve.
import { Badge, type Tone } from "@/components/ui/badge";
import { formatMoney } from "./format";

const RESULT: Record<string, { label: string; tone: Tone }> = {
  matched: { label: "Matched", tone: "green" },
  "amount-mismatch": { label: "Amount mismatch", tone: "red" },
  unknown: { label: "Unknown to us", tone: "amber" },
};

export function LineResultBadge({ result }: { result: string }) {
  const known = RESULT[result] ?? { label: result, tone: "slate" as const };
  return (
    <span data-testid="line-result" data-result={result}>
      <Badge tone={known.tone}>{known.label}</Badge>
    </span>
  );
}

/** "3 matched · 1 mismatch · 1 unknown", the exceptions coloured when there are any. */
export function ReconciliationCounts({ matched, mismatched, unknown, overdue }: { matched: number; mismatched: number; unknown: number; overdue?: number }) {
  return (
    <span className="flex flex-wrap gap-1" data-testid="reconciliation-counts">
      <Badge tone="green">{matched} matched</Badge>
      <Badge tone={mismatched ? "red" : "slate"}>{mismatched} mismatch</Badge>
      <Badge tone={unknown ? "amber" : "slate"}>{unknown} unknown</Badge>
      {overdue ? <Badge tone="red">{overdue} not settled</Badge> : null}
    </span>
  );
}

/** net - (payout + reserve): 0 is the check passing; null: no payout yet. */
export function PayoutDifference({ difference, currency }: { difference: bigint | null; currency: string }) {
  if (difference === null) return <span className="text-slate-500" data-testid="payout-difference">no payout yet</span>;
  return difference === 0n ? (
    <span className="text-emerald-700" data-testid="payout-difference" data-difference="0">
      adds up (0)
    </span>
  ) : (
    <span className="font-medium text-red-700" data-testid="payout-difference" data-difference={difference.toString()}>
      {formatMoney(difference, currency)} off
    </span>
  );
}
