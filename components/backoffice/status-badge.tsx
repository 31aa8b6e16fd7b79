import { Badge, type Tone } from "@/components/ui/badge";
import { DISPLAY_STATE_LABELS, type DisplayState } from "@/lib/payments/derive-display-state";

const DISPLAY_TONES: Record<DisplayState, Tone> = {
  pending: "slate",
  authorized: "blue",
  partially_captured: "green",
  captured: "green",
  partially_refunded: "violet",
  refunded: "violet",
  voided: "slate",
  payout: "violet",
  declined: "red",
  failed: "red",
  timed_out: "amber",
  abandoned: "amber",
  tokenized: "blue",
};

/** A payment's state as deriveDisplayState tells it (never the coarse stored status). */
export function PaymentStateBadge({ state }: { state: DisplayState }) {
  return (
    <span data-testid="payment-state" data-state={state}>
      <Badge tone={DISPLAY_TONES[state]}>{DISPLAY_STATE_LABELS[state]}</Badge>
    </span>
  );
}

const SIMPLE_TONES: Record<string, Tone> = {
  approved: "green",
  delivered: "green",
  active: "green",
  pending: "amber",
  expiring: "amber",
  declined: "red",
  failed: "red",
  revoked: "red",
  expired: "slate",
};

export function StateBadge({ state }: { state: string }) {
  return <Badge tone={SIMPLE_TONES[state] ?? "slate"}>{state}</Badge>;
}
