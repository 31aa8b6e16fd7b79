// What each acquirer's API can do, where that differs between them (docs/acquirers.md). The routing
// skips an acquirer for what it cannot do, a request that names it for that is refused up front,
// and the follow-up rules refuse what its API would refuse, so nothing is sent only to fail.
// The one capability that is not here is the look-up after a lost answer: it differs between an
// acquirer's real API and our sandbox of it, so each connector declares it (`lookups`,
// LookupCapability in ./types.ts, docs/decisions.md "Unknown outcomes").
import type { ProcessorName } from "./types";

export interface ProcessorCapabilities {
  /** Card payouts (original credits). */
  payouts: boolean;
  /** Merchant-initiated authorizations (api/mit): an authorization captured later. */
  merchantInitiated: boolean;
  /** More than one capture of one authorization. */
  severalCaptures: boolean;
  /** An account-updater feed of changed cards. */
  cardUpdates: boolean;
}

export const PROCESSOR_CAPABILITIES: Record<ProcessorName, ProcessorCapabilities> = {
  finaro: { payouts: true, merchantInitiated: true, severalCaptures: true, cardUpdates: true },
  clearhaus: { payouts: true, merchantInitiated: true, severalCaptures: true, cardUpdates: true },
  // Bambora North America Payments API v1: no payout operation; merchant-initiated card-on-file
  // types "must be a purchase only"; a second completion of a pre-authorization is answered 203
  // "Pre-Authorization already completed"; no account updater (docs/acquirers/references/bambora-choice.md).
  bambora: { payouts: false, merchantInitiated: false, severalCaptures: false, cardUpdates: false },
};

/** What a payment asks of the acquirer that authorizes it. */
export type RoutingPurpose = "payment" | "mit" | "payout";

/** Why `processor` cannot serve `purpose`, or undefined when it can. */
export function unsupportedPurpose(processor: ProcessorName, purpose: RoutingPurpose): string | undefined {
  const capabilities = PROCESSOR_CAPABILITIES[processor];
  if (purpose === "payout" && !capabilities.payouts) return `${processor} offers no payouts`;
  if (purpose === "mit" && !capabilities.merchantInitiated)
    return `${processor} takes merchant-initiated payments only as immediate purchases, not as authorizations to capture later`;
  return undefined;
}

export function processorsWith(capability: keyof ProcessorCapabilities): ProcessorName[] {
  return (Object.keys(PROCESSOR_CAPABILITIES) as ProcessorName[]).filter((name) => PROCESSOR_CAPABILITIES[name][capability]);
}
