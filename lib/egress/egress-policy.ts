// Which merchant addresses the service may connect to (notification delivery, "send test
// notification"): every outbound call to an address a merchant chose goes through lib/egress.
// Production: https only, public addresses only, plus the private networks the operator names in
// EGRESS_ALLOWED_NETWORKS. Local mode (`npm start`, tests): http too, and loopback, so the demo shop
// and a developer's receiver on 127.0.0.1 work; other private ranges stay refused there as well
// (docs/decisions/0063-egress-and-request-limits.md).
import ipaddr from "ipaddr.js";
import { config } from "../env";

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface EgressPolicy {
  /** Merchant addresses must be https (production). */
  requireHttps: boolean;
  /** 127.0.0.0/8 and ::1 may be reached (local mode only). */
  allowLoopback: boolean;
  /** Networks the operator allows although they are private (EGRESS_ALLOWED_NETWORKS). */
  allowedNetworks: Network[];
}

/** Parses "10.1.0.0/16,fd00::/8"; throws on a malformed entry (lib/env.ts reports it at start). */
export function parseNetworks(list: string): Network[] {
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => ipaddr.parseCIDR(entry));
}

/** The policy last made, with the configuration it was made from. */
let made: { production: boolean; networks: string; policy: EgressPolicy } | undefined;

/**
 * The policy of this process, from its configuration. Made again only when that changes: every
 * merchant address an API request names and every notification attempt asks for it, and parsing
 * EGRESS_ALLOWED_NETWORKS each time showed in the profiles (issue 37). Shared, so frozen.
 */
export function egressPolicy(): EgressPolicy {
  const settings = config();
  const networks = settings.EGRESS_ALLOWED_NETWORKS;
  if (made?.production !== settings.isProduction || made.networks !== networks) {
    const policy: EgressPolicy = {
      requireHttps: settings.isProduction,
      allowLoopback: !settings.isProduction,
      allowedNetworks: Object.freeze(parseNetworks(networks)) as Network[],
    };
    made = { production: settings.isProduction, networks, policy: Object.freeze(policy) };
  }
  return made.policy;
}
