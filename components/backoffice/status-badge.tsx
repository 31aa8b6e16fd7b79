import { Badge, type Tone } from "@/components/ui/badge";

const PAYMENT_TONES: Record<string, Tone> = {
  PENDING: "slate",
  AUTHORIZED: "blue",
  CAPTURED: "green",
  REFUNDED: "violet",
  VOIDED: "slate",
  DECLINED: "red",
  FAILED: "red",
  TIMED_OUT: "amber",
  TOKENIZED: "blue",
};

export function PaymentStatusBadge({ status }: { status: string }) {
  return <Badge tone={PAYMENT_TONES[status] ?? "slate"}>{status.toLowerCase().replace("_", " ")}</Badge>;
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
