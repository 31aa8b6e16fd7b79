// The part of the egress check that needs no DNS: scheme, and the host when it is a literal IP
// address. Run on merchant input (API notificationurl, back-office forms) so a refused address is
// refused when it is given, and again right before every connection (a stored address may predate
// the rule). Host names are judged by what they resolve to, at connect time (connect-checked.ts).
import { isIP } from "node:net";
import { egressPolicy, type EgressPolicy } from "./egress-policy";
import { refusedAddressReason } from "./refused-address-reason";

/** The URL's host as an IP literal (brackets of IPv6 removed), or undefined for a host name. */
export function literalHost(url: URL): string | undefined {
  const host = url.hostname.startsWith("[") && url.hostname.endsWith("]") ? url.hostname.slice(1, -1) : url.hostname;
  // The WHATWG parser already turned 0x7f.1, 2130706433 and 127.1 into 127.0.0.1, and a hostname
  // holds no zone (%): for what it leaves, Node's own check (native) says what ipaddr.isValid says.
  return isIP(host) !== 0 ? host : undefined;
}

/**
 * Null when `value` may be used as a merchant address under `policy`, else the reason, worded to
 * follow the parameter name ("notificationurl: must use https"). Malformed URLs are left to the
 * caller's URL check.
 */
export function checkMerchantUrl(value: string, policy: EgressPolicy = egressPolicy()): string | null {
  const url = URL.parse(value);
  return url ? checkParsedMerchantUrl(url, policy) : null;
}

/** checkMerchantUrl of an address already parsed (a schema that parsed it once asks with it). */
export function checkParsedMerchantUrl(url: URL, policy: EgressPolicy = egressPolicy()): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http or https URL";
  if (policy.requireHttps && url.protocol !== "https:") return "must be an https URL";
  const literal = literalHost(url);
  if (literal === undefined) return null;
  const refused = refusedAddressReason(literal, policy);
  return refused ? `must not point to ${refused}` : null;
}
