// The client's IP address, for the sign-in throttle and the customer IP sent to acquirers. One rule
// for the whole service: X-Forwarded-For is believed only as far as TRUSTED_PROXY_HOPS proxies we run
// ourselves appended to it. Each proxy appends the address it saw, so with N trusted hops the client
// is the N-th entry from the right; everything left of that was written by the client and is ignored.
// With 0 hops (the default) the header is ignored entirely and the socket address is used.
import net from "node:net";
import { config } from "../env";
import { stampedPeerAddress } from "./peer-address";

type HeaderBag = Record<string, string | string[] | undefined> | Headers | undefined | null;

function toHeaders(bag: HeaderBag): Headers {
  if (!bag) return new Headers();
  if (bag instanceof Headers) return bag;
  const headers = new Headers();
  for (const [name, value] of Object.entries(bag)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** A syntactically valid IP address (IPv4-mapped IPv6 written as IPv4), or null. */
export function normalizeIp(value: string | undefined | null): string | null {
  let candidate = value?.trim() ?? "";
  if (candidate.startsWith("[") && candidate.includes("]")) candidate = candidate.slice(1, candidate.indexOf("]"));
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(candidate)) candidate = candidate.slice(7);
  return net.isIP(candidate) ? candidate.toLowerCase() : null;
}

/**
 * The client address of a request, or null when it cannot be known (a request that did not come
 * through the service's own HTTP server, or a malformed trusted entry).
 */
export function clientIp(headers: HeaderBag, trustedHops = config().TRUSTED_PROXY_HOPS): string | null {
  const bag = toHeaders(headers);
  const peer = normalizeIp(stampedPeerAddress(bag));
  if (trustedHops <= 0) return peer;
  // Nearest first: the socket peer (our last proxy), then the addresses the proxies appended.
  const forwarded = (bag.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .reverse();
  const chain = [peer, ...forwarded];
  // Fewer entries than hops: the request passed fewer proxies than configured; take the farthest one there is.
  return normalizeIp(chain[Math.min(trustedHops, chain.length - 1)]);
}
