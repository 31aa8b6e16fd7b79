// A notification's delivery state (lib/backoffice/delivery-state.ts) as a badge, on every page.
import { Badge, type Tone } from "@/components/ui/badge";
import type { DeliveryState } from "@/lib/backoffice/delivery-state";

const TONES: Record<DeliveryState, Tone> = { delivered: "green", retrying: "amber", pending: "slate", failed: "red" };

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return (
    <span data-testid="delivery-state" data-state={state}>
      <Badge tone={TONES[state]}>{state}</Badge>
    </span>
  );
}
