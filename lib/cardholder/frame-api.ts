// The JSON endpoints our own frames call (/dynamic/<sessionid>/payments...): same-origin only,
// bodies validated with the protocol's schemas, answers never cached. Nothing here logs a body.
import type { WireSchema } from "./wire-schema";
import { config } from "../env";
import { BodyTooLargeError, payloadTooLargeResponse, readLimitedText } from "../http/read-limited-body";
import { clientIp as trustedClientIp } from "../http/client-ip";
import type { CardholderBrowser } from "../threeds/browser-areq";
import type { BrowserInfo } from "./protocol";

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}

/**
 * Only our frames may call these endpoints: a browser always sends Origin on a POST, and a JSON
 * body from another origin would need a CORS preflight that we never answer.
 */
export function fromOurOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  const ours = new URL(config().apiBaseUrls.cit).origin;
  const contentType = request.headers.get("content-type") ?? "";
  return (
    origin === ours &&
    (request.method !== "POST" || contentType.startsWith("application/json") || request.headers.get("content-length") === "0")
  );
}

const MAX_BODY_BYTES = 16_384;

/**
 * The body parsed with `schema`; undefined when it is not valid, and the 413 answer when it is
 * larger than 16 KB (read with a cap: these endpoints answer anyone who sends the right Origin).
 */
export async function readJsonBody<T>(request: Request, schema: WireSchema<T>): Promise<T | undefined | Response> {
  let text: string;
  try {
    text = await readLimitedText(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return payloadTooLargeResponse(MAX_BODY_BYTES);
    return undefined;
  }
  try {
    const parsed = schema.safeParse(text ? JSON.parse(text) : {});
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cardholder's address (for 3-D Secure and the acquirer): the socket address, or what the
 * TRUSTED_PROXY_HOPS proxies in front of us report; never an address the client wrote itself.
 */
export function clientIp(request: Request): string | undefined {
  return trustedClientIp(request.headers) ?? undefined;
}

/** The cardholder's browser for the 3-D Secure AReq: its request's headers and IP, and what the frame read. */
export function cardholderBrowser(request: Request, info: BrowserInfo | undefined): CardholderBrowser {
  return {
    acceptHeader: request.headers.get("accept") ?? undefined,
    userAgent: request.headers.get("user-agent") ?? undefined,
    acceptLanguage: request.headers.get("accept-language") ?? undefined,
    ip: clientIp(request),
    info,
  };
}
