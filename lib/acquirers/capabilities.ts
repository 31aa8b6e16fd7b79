// What each acquirer's API can do where acquirers differ, from its module (AcquirerCapabilities in
// ./contract.ts). The routing skips an acquirer for what it cannot do, a request that names it for
// that is refused up front, and the follow-up rules refuse what its API would refuse.
import type { AcquirerCapabilities } from "./contract";
import { acquirerModule } from "./index";
import { ACQUIRER_NAMES, type AcquirerName } from "./names";

export function capabilitiesOf(processor: AcquirerName): AcquirerCapabilities {
  return acquirerModule(processor).capabilities;
}

/** What a payment asks of the acquirer that authorizes it. */
export type RoutingPurpose = "payment" | "mit" | "payout";

/** Why `processor` cannot serve `purpose`, or undefined when it can. */
export function unsupportedPurpose(processor: AcquirerName, purpose: RoutingPurpose): string | undefined {
  const capabilities = capabilitiesOf(processor);
  if (purpose === "payout" && !capabilities.payouts) return `${processor} offers no payouts`;
  if (purpose === "mit" && !capabilities.merchantInitiated)
    return `${processor} takes merchant-initiated payments only as immediate purchases, not as authorizations to capture later`;
  return undefined;
}

export function processorsWith(capability: keyof AcquirerCapabilities): AcquirerName[] {
  return ACQUIRER_NAMES.filter((name) => capabilitiesOf(name)[capability]);
}
