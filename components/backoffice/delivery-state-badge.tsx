// A notification's delivery state (lib/backoffice/queries/list-notifications.ts) as a badge.
import { Badge, type Tone } from "@/components/ui/badge";
import type { DeliveryState } from "@/lib/backoffice/queries/list-notifications";

const TONES: Record<DeliveryState, Tone> = { delivered: "green", retrying: "amber", pending: "slate", failed: "red" };

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return <Badge tone={TONES[state]}>{state}</Badge>;
}
