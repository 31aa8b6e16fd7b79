// Security headers of the back office and of next-auth's endpoints: no other site may frame them
// (clickjacking of "Create key", "Remove user" ...), and in production browsers must use https only.
// Scoped by path on purpose: the hosted fields (/dynamic/...) must stay frameable by merchants' pages.
// Set at the HTTP server's edge (lib/http/peer-address.ts, installed by instrumentation.ts) because
// HSTS depends on the run-time configuration, while next.config.mjs headers are fixed at build time.
import type http from "node:http";
import { config } from "../env";

const SCOPED_PREFIXES = ["/backoffice", "/api/auth"];
/** Pages the back office frames itself (the live styling preview): only its own origin may. */
const SELF_FRAMED = ["/backoffice/settings/hosted/preview"];

export function backofficeHeaders(pathname: string, isProduction: boolean): Record<string, string> {
  const scoped = SCOPED_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  if (!scoped) return {};
  const selfFramed = SELF_FRAMED.includes(pathname);
  return {
    "Content-Security-Policy": selfFramed ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    "X-Frame-Options": selfFramed ? "SAMEORIGIN" : "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    ...(isProduction ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

export function setBackofficeHeaders(request: http.IncomingMessage, response: http.ServerResponse): void {
  let pathname: string;
  try {
    pathname = new URL(request.url ?? "/", "http://service.invalid").pathname;
  } catch {
    return;
  }
  for (const [name, value] of Object.entries(backofficeHeaders(pathname, config().isProduction))) response.setHeader(name, value);
}
