// Pieces of the Disputes pages and the payment page's disputes: a dispute's status badge, its due
// date with the days left (past due in red), and the note for accounts whose acquirer publishes no
// dispute or settlement API.
import { Badge, type Tone } from "@/components/ui/badge";
import { DISPUTE_STATUS_LABELS } from "@/lib/backoffice/dispute-filters";
import type { DisputeStatus } from "@/lib/acquirers/contract";

const STATUS_TONES: Record<DisputeStatus, Tone> = {
  open: "amber",
  "under-review": "blue",
  refuted: "blue",
  accepted: "slate",
  won: "green",
  lost: "red",
};

export function DisputeStatusBadge({ status }: { status: string }) {
  const known = status in STATUS_TONES ? (status as DisputeStatus) : undefined;
  return (
    <span data-testid="dispute-status" data-status={status}>
      <Badge tone={known ? STATUS_TONES[known] : "slate"}>{known ? DISPUTE_STATUS_LABELS[known] : status}</Badge>
    </span>
  );
}

/** Whole days from `today` to `day` (both YYYY-MM-DD). */
export function daysFrom(today: string, day: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The due date, and for an open dispute how long is left (today counts: the acquirer's last day). */
export function DueDate({ dueOn, open, today }: { dueOn: string | null; open: boolean; today: string }) {
  if (!dueOn) return <span className="text-slate-400">—</span>;
  if (!open) return <span className="tabular-nums">{dueOn}</span>;
  const days = daysFrom(today, dueOn);
  const words = days < 0 ? "past due" : days === 0 ? "due today" : days === 1 ? "1 day left" : `${days} days left`;
  return (
    <span className="tabular-nums" data-testid="dispute-due">
      {dueOn}
      <span className={`block text-xs ${days < 0 ? "font-medium text-red-700" : days <= 3 ? "font-medium text-amber-800" : "text-slate-500"}`}>{words}</span>
    </span>
  );
}
