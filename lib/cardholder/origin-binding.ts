// Binds a session's frames to the merchant page that loaded dynamic.js. dynamic.js is served with a
// token naming the page's origin (from the request's Referer/Origin), signed with the server's
// session secret; every frame page requires the token, checks the signature and then allows only
// that origin: in frame-ancestors and as the only postMessage partner.
import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../env";

function signature(sessionId: string, origin: string): string {
  return createHmac("sha256", config().secrets.sessionSecret).update(`hosted-fields:${sessionId}:${origin}`).digest("base64url");
}

/** An http(s) origin exactly as browsers write it (scheme://host[:port]), or undefined. */
export function normalizeOrigin(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The merchant page's origin from a script request's headers (Origin, else Referer). */
export function pageOriginFromHeaders(headers: Headers): string | undefined {
  return normalizeOrigin(headers.get("origin")) ?? normalizeOrigin(headers.get("referer"));
}

export function createOriginBinding(sessionId: string, origin: string): string {
  return `${Buffer.from(origin).toString("base64url")}.${signature(sessionId, origin)}`;
}

/** The origin a binding token names, when its signature is right for this session. */
export function verifyOriginBinding(sessionId: string, token: string | null | undefined): string | undefined {
  if (!token) return undefined;
  const [encoded, given] = token.split(".");
  if (!encoded || !given) return undefined;
  const origin = normalizeOrigin(Buffer.from(encoded, "base64url").toString("utf8"));
  if (!origin) return undefined;
  const expected = Buffer.from(signature(sessionId, origin));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? origin : undefined;
}
