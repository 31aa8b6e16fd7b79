// What each acquirer's API can do where acquirers differ, from its module (AcquirerCapabilities in
// ./contract.ts). The routing skips an acquirer for what it cannot do, a request that names it for
// that is refused up front, and the follow-up rules refuse what its API would refuse.
import type { AcquirerCapabilities } from "./contract";
import { ACQUIRER_NAMES, type AcquirerName } from "./names";
import { platformView } from "./platforms";

/** What `processor`'s API can do: the account's platform's (decision 0193), its first platform's without one. */
export function capabilitiesOf(processor: AcquirerName, platform?: string | null): AcquirerCapabilities {
  return platformView(processor, platform).capabilities;
}

/** What a payment asks of the acquirer that authorizes it. */
export type RoutingPurpose = "payment" | "mit" | "payout";

/** Why `processor` (an account of it on `platform`) cannot serve `purpose`, or undefined when it can. */
export function unsupportedPurpose(processor: AcquirerName, purpose: RoutingPurpose, platform?: string | null): string | undefined {
  const capabilities = capabilitiesOf(processor, platform);
  if (purpose === "payout" && !capabilities.payouts) return `${processor} offers no payouts`;
  if (purpose === "mit" && !capabilities.merchantInitiated)
    return `${processor} takes merchant-initiated payments only as immediate purchases, not as authorizations to capture later`;
  return undefined;
}

/** The processors whose first platform has `capability`. */
export function processorsWith(capability: keyof AcquirerCapabilities): AcquirerName[] {
  return ACQUIRER_NAMES.filter((name) => capabilitiesOf(name)[capability]);
}
