// A body that declares more than any route of the service reads is refused at the HTTP server's
// edge (installed by instrumentation.ts), before Next.js sees the request: Next's proxy would
// otherwise read the whole upload to its end before any route could answer 413 (issue 10, item 2).
// The body is never buffered: what the client still sends is discarded as it arrives.
import type http from "node:http";

/** The largest body any route takes: Next's own cap for proxied bodies and server actions (1 MB). */
export const MAX_DECLARED_BODY_BYTES = 1024 * 1024;
/** Merchant API bodies are small JSON objects (lib/api/merchant-route.ts reads at most this much). */
export const MERCHANT_API_MAX_BODY_BYTES = 64 * 1024;

/** True when the request was answered here (413); the caller must not hand it on. */
export function refuseDeclaredOversizedBody(request: http.IncomingMessage, response: http.ServerResponse): boolean {
  // The Inngest server's calls carry the run's memoized state, which the SDK bounds itself.
  if ((request.url ?? "").startsWith("/api/inngest")) return false;
  const api = (request.url ?? "").startsWith("/api/");
  const limit = api ? MERCHANT_API_MAX_BODY_BYTES : MAX_DECLARED_BODY_BYTES;
  const declared = request.headers["content-length"];
  if (declared === undefined || !/^\d+$/.test(declared) || Number(declared) <= limit) return false;
  const body = api ? JSON.stringify({ error: "PAYLOAD_TOO_LARGE", errordescription: `body: must be at most ${limit} bytes` }) : "Payload Too Large";
  response.writeHead(413, {
    "Content-Type": api ? "application/json" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  // Neither closed nor destroyed here: closing with unread data resets the connection before the
  // client has read the 413. Node discards whatever the client still sends (nothing is buffered),
  // and a client stops sending once it has the answer.
  response.end(body);
  return true;
}
