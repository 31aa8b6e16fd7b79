// Lingering close (as nginx's `lingering_close` and Apache's): when the service answers a request
// before its body has arrived (413 for an oversized upload, 400 for a bad key with an unread body),
// Node closes the connection as soon as the answer is written. The client is still sending, so its
// next packets meet a closed socket and the kernel answers with a reset, which on Linux discards
// the answer the client has not read yet: it sees EPIPE or ECONNRESET instead of our 413. So the
// close waits: the answer and a FIN go out at once, and the socket is destroyed only after a short
// linger (or earlier, when the client closes). Nothing more of the body is read on purpose: what
// Node already drains is discarded as it arrives, so a 150 MB upload costs no memory.
import type http from "node:http";
import type { Socket } from "node:net";

/** How long a connection whose request body was cut short stays open after the answer. */
export const LINGER_MS = 5_000;

const CURRENT_REQUEST = Symbol("cps.lingering-close.current-request");
type LingeringSocket = Socket & { [CURRENT_REQUEST]?: http.IncomingMessage };

/** Installs the lingering close on the request's socket (once per socket; keep-alive reuses it). */
export function lingerIfAnsweredEarly(request: http.IncomingMessage): void {
  const socket = request.socket as LingeringSocket | null;
  if (!socket) return;
  const installed = CURRENT_REQUEST in socket;
  socket[CURRENT_REQUEST] = request;
  if (installed) return;
  const destroySoon = socket.destroySoon.bind(socket);
  // Node's HTTP server calls destroySoon() once the last answer on a connection is written.
  socket.destroySoon = () => {
    const current = socket[CURRENT_REQUEST];
    if (!current || current.complete || socket.destroyed) return destroySoon();
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    // The client closing its side ends the linger at once.
    socket.once("end", () => socket.destroy());
  };
}
