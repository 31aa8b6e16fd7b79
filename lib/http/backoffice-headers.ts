// Security headers of the back office and of next-auth's endpoints: no other site may frame them
// (clickjacking of "Create key", "Remove user" ...), in production browsers must use https only, and
// back-office pages run only the scripts the service rendered into them (a per-response nonce).
// Scoped by path on purpose: the hosted fields (/dynamic/...) must stay frameable by merchants' pages
// and keep the policies they set themselves (lib/cardholder/frame-page.ts).
// Set at the HTTP server's edge (lib/http/peer-address.ts, installed by instrumentation.ts) because
// HSTS depends on the run-time configuration, while next.config.mjs headers are fixed at build time;
// and because the nonce has to reach Next with the request: Next reads the nonce of a request's
// Content-Security-Policy header and puts it on every script it renders (its runtime, the page's
// chunks, the inline flight data), so the edge sets the same policy on the request and the response.
import { randomBytes } from "node:crypto";
import type http from "node:http";
import { config } from "../env";

const SCOPED_PREFIXES = ["/backoffice", "/api/auth"];
/** Pages the back office frames itself (the live styling preview): only its own origin may. */
const SELF_FRAMED = ["/backoffice/settings/hosted/preview"];

/** A fresh script nonce: 128 random bits, as CSP Level 3 asks, base64 (the nonce-source grammar). */
export function newScriptNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The policy of every back-office page (decision 0138). Scripts: only those carrying this response's
 * nonce, and what they load ('strict-dynamic': Next's runtime loads the page's chunks; 'self' is
 * there for browsers without strict-dynamic, which then ignore the nonce-less rest). Styles allow
 * inline style attributes (React's style props: the charts), which a nonce cannot cover; an injected
 * style cannot run code. `next dev` needs eval for React's error overlays, production never.
 */
export function backofficePagePolicy(nonce: string, development = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export interface BackofficeHeaderOptions {
  isProduction: boolean;
  /** The nonce of this response's page policy; without one, pages get frame-ancestors only. */
  nonce?: string;
  development?: boolean;
}

/** The response headers of a request for `pathname` (none outside the back office and next-auth). */
export function backofficeHeaders(pathname: string, options: BackofficeHeaderOptions): Record<string, string> {
  const scoped = SCOPED_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  if (!scoped) return {};
  const selfFramed = SELF_FRAMED.includes(pathname);
  const page = !selfFramed && options.nonce !== undefined && (pathname === "/backoffice" || pathname.startsWith("/backoffice/"));
  return {
    // The preview answers with the hosted field's own policy (nonce, styling fonts); next-auth's
    // endpoints answer JSON and redirects: framing is all there is to refuse.
    "Content-Security-Policy": page ? backofficePagePolicy(options.nonce!, options.development) : selfFramed ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    "X-Frame-Options": selfFramed ? "SAMEORIGIN" : "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    ...(options.isProduction ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

export function setBackofficeHeaders(request: http.IncomingMessage, response: http.ServerResponse): void {
  let pathname: string;
  try {
    pathname = new URL(request.url ?? "/", "http://service.invalid").pathname;
  } catch {
    return;
  }
  const headers = backofficeHeaders(pathname, {
    isProduction: config().isProduction,
    // Only back-office requests pay for the random bytes (the merchant API's hot path does not).
    nonce: pathname.startsWith("/backoffice") ? newScriptNonce() : undefined,
    development: process.env.NODE_ENV === "development",
  });
  const policy = headers["Content-Security-Policy"];
  if (policy?.includes("'nonce-")) {
    // Next takes the nonce from the request's policy. Replacing whatever the client sent (a policy
    // of its own, report-only included) keeps the nonce ours and unknown to the client beforehand.
    delete request.headers["content-security-policy-report-only"];
    request.headers["content-security-policy"] = policy;
  }
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
}
