// The DNS lookup of every connection to a merchant address: resolves the name once, refuses the
// connection when ANY of its addresses is refused, and hands the checked addresses to the socket,
// which connects to them without a second lookup (so a DNS answer that changes between a check and
// the connection, "DNS rebinding", cannot switch the destination). Used as `connect.lookup` of the
// undici Agent in post-to-merchant.ts; net.connect calls it for host names, never for IP literals
// (those are checked by checkMerchantUrl before the request).
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import type { EgressPolicy } from "./egress-policy";
import { refusedAddressReason } from "./refused-address-reason";

export const EGRESS_REFUSED = "EGRESS_REFUSED";

/** A destination the policy refuses; the message stays in the log, the merchant sees a plain text. */
export class EgressRefusedError extends Error {
  readonly code = EGRESS_REFUSED;
  constructor(detail: string) {
    super(`destination not allowed: ${detail}`);
    this.name = "EgressRefusedError";
  }
}

/** Whether `error` (or one of its causes) is a refusal of the checked lookup. */
export function isEgressRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === EGRESS_REFUSED) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The refusal's own words ("destination not allowed: localhost resolves to a loopback address"), from `error` or its causes. */
export function egressRefusalMessage(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof EgressRefusedError) return current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function checkedLookup(policy: EgressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { family: options.family, hints: options.hints, all: true, order: "verbatim" }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      for (const { address } of addresses) {
        const refused = refusedAddressReason(address, policy);
        if (refused) return callback(new EgressRefusedError(`${hostname} resolves to ${refused}`), "", 0);
      }
      if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
