// The acquirers the sandboxes stand in for. The sandboxes' own list, not the connectors' (a sandbox
// never imports lib/processors): the same three names by the spec.
export const ACQUIRER_NAMES = ["finaro", "clearhaus", "bambora"] as const;
export type AcquirerName = (typeof ACQUIRER_NAMES)[number];
