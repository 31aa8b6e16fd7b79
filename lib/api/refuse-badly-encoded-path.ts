// The edge hook (instrumentation.ts) for paths Next's router cannot decode: answers them with the
// spec's 400 before Next sees them. Formerly a Next proxy (proxy.ts), which cost every matched
// request a read of its whole body before any route could answer (issue 10, item 2).
import type http from "node:http";
import { badlyEncodedPathRefusal } from "./badly-encoded-path";

/** The paths with parameters; static files and the Inngest endpoint have none. */
const PREFIXES = ["/api/", "/dynamic/", "/backoffice/", "/sandbox/"];

/** True when the request was answered here. */
export function refuseBadlyEncodedPath(request: http.IncomingMessage, response: http.ServerResponse): boolean {
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  if (!PREFIXES.some((prefix) => pathname.startsWith(prefix)) || pathname.startsWith("/api/inngest")) return false;
  const refusal = badlyEncodedPathRefusal(pathname);
  if (!refusal) return false;
  response.writeHead(refusal.status, { ...refusal.headers, "Content-Length": Buffer.byteLength(refusal.body) });
  response.end(refusal.body);
  return true;
}
