// Sorts one IP address into allowed or refused for a connection to a merchant. Ranges come from
// ipaddr.js (IANA special-purpose registries); only ordinary unicast passes, unless the policy
// allows loopback (local mode) or the operator named the network.
import ipaddr from "ipaddr.js";
import type { EgressPolicy } from "./egress-policy";

/** What a refused range is called in messages. */
const RANGE_NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private (RFC 1918) address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
};

/**
 * IPv6 forms that carry an IPv4 address are judged by that address: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64's well-known prefix (64:ff9b::/96)
 * and 6to4 (2002:AABB:CCDD::/48). Otherwise ::ffff:10.0.0.1 would reach 10.0.0.1.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const lastFour = () => new ipaddr.IPv4(address.toByteArray().slice(12));
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (parts.slice(0, 6).every((part) => part === 0)) return lastFour(); // ::a.b.c.d (:: and ::1 are handled by their ranges first)
  if (parts.slice(0, 4).every((part) => part === 0) && parts[4] === 0xffff && parts[5] === 0) return lastFour();
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((part) => part === 0)) return lastFour();
  if (parts[0] === 0x2002) return new ipaddr.IPv4(address.toByteArray().slice(2, 6));
  return undefined;
}

function inNetworks(address: ipaddr.IPv4 | ipaddr.IPv6, networks: EgressPolicy["allowedNetworks"]): boolean {
  return networks.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}

/**
 * Null when a connection to `address` (a literal IPv4 or IPv6 address) is allowed, else why not,
 * e.g. "a private (RFC 1918) address". A string that is no IP address is refused.
 */
export function refusedAddressReason(address: string, policy: EgressPolicy): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    if (range !== "loopback" && range !== "unspecified") parsed = embeddedIpv4(v6) ?? v6;
  }
  if (inNetworks(parsed, policy.allowedNetworks)) return null;
  const range = parsed.range();
  if (range === "unicast") return null;
  if (range === "loopback" && policy.allowLoopback) return null;
  return RANGE_NAMES[range] ?? `a reserved address (${range})`;
}
