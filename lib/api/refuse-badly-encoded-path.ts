// The edge hook (instrumentation.ts) for paths Next's router cannot decode: answers them with the
// spec's 400 before Next sees them. Formerly a Next proxy (proxy.ts), which cost every matched
// request a read of its whole body before any route could answer (issue 10, item 2).
import type http from "node:http";
import { isSessionIdFormat, MALFORMED_SESSION_ANSWER } from "../validation/session-id";
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
  if (refusal) {
    response.writeHead(refusal.status, { ...refusal.headers, "Content-Length": Buffer.byteLength(refusal.body) });
    response.end(refusal.body);
    return true;
  }
  // A /dynamic/ path whose session id cannot be one (e.g. 15 KB of random letters) is refused here,
  // before Next's router builds anything from it (security review 3, M1).
  if (pathname.startsWith("/dynamic/") && !isSessionIdFormat(pathname.split("/")[2] ?? "")) {
    const { status, body } = MALFORMED_SESSION_ANSWER;
    response.writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(body),
    });
    response.end(body);
    return true;
  }
  return false;
}
