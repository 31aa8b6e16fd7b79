// The address of the TCP peer of a request, for route handlers. `next start` hands route handlers a
// web Request without the socket, and the only address Next passes on is `x-forwarded-for`, which it
// fills in only when the client did not send one (so a client chooses it). At server start
// (instrumentation.ts) we wrap the Node HTTP server's request event and stamp every request with a
// header holding a per-process random token and the socket's remote address, replacing any header of
// that name the client sent. Route handlers accept the stamp only with the token, so a request that
// was not stamped (one that arrived before the wrapper was installed, or a test harness without it)
// has no peer address rather than a forged one.
import { randomBytes } from "node:crypto";
import http from "node:http";

export const PEER_ADDRESS_HEADER = "x-cps-peer-address";

const TOKEN_KEY = Symbol.for("card-payment-service.peer-address-token");
const INSTALLED_KEY = Symbol.for("card-payment-service.peer-address-installed");

type Globals = Record<symbol, unknown>;

function token(): string {
  const globals = globalThis as Globals;
  // globalThis, not a module variable: Next bundles instrumentation and route handlers separately.
  globals[TOKEN_KEY] ??= randomBytes(18).toString("base64url");
  return globals[TOKEN_KEY] as string;
}

/** Runs before Next sees a request; true when it has answered the request itself. */
type EdgeHook = (request: http.IncomingMessage, response: http.ServerResponse) => boolean | void;

/**
 * Installs the stamp on every Node HTTP server of this process (idempotent). `onRequest` runs at the
 * same place for every request, before Next sees it (the back office's security headers use it);
 * when it returns true it has answered the request and Next never sees it.
 */
export function stampPeerAddresses(onRequest?: EdgeHook): void {
  const globals = globalThis as Globals;
  if (globals[INSTALLED_KEY]) return;
  globals[INSTALLED_KEY] = true;
  const stamp = `${token()} `;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithPeerAddress(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_ADDRESS_HEADER] = stamp + (request.socket?.remoteAddress ?? "");
      if (onRequest?.(request, args[1] as http.ServerResponse) === true) return true;
    }
    return emit.apply(this, [event, ...args] as unknown as Parameters<typeof emit>);
  } as typeof emit;
}

/** The socket address stamped on this request by `stampPeerAddresses`, or null. */
export function stampedPeerAddress(headers: Headers): string | null {
  const value = headers.get(PEER_ADDRESS_HEADER);
  if (!value) return null;
  const expected = `${token()} `;
  if (!value.startsWith(expected)) return null;
  return value.slice(expected.length) || null;
}
