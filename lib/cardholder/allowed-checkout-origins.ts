// Which merchant pages may embed a session's hosted fields (security item 8). A hosted integration
// (hostedid) with its own list replaces the merchant's; a merchant without a list keeps the
// behaviour from before lists existed: the page that loads dynamic.js is bound, whatever its origin
// (as Stripe and Adyen treat accounts that have not listed their domains).

export interface CheckoutOriginLists {
  merchant: readonly string[];
  /** The session's hosted integration's list, when the session names one. */
  integration?: readonly string[];
}

/** The origins this session's frames may be bound to; empty: any origin (no list configured). */
export function effectiveCheckoutOrigins({ merchant, integration }: CheckoutOriginLists): string[] {
  return [...(integration && integration.length > 0 ? integration : merchant)];
}

/** True when `origin` may get a binding (and so appear in the frames' frame-ancestors). */
export function isCheckoutOriginAllowed(allowed: readonly string[], origin: string): boolean {
  return allowed.length === 0 || allowed.includes(origin);
}
