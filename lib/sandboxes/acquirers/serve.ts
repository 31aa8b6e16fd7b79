// Serves a fetch-style handler (Request -> Response) with node:http on 127.0.0.1, so the same sandbox
// code runs in its own server (tests, `npm run sandbox`, the service's background) or inside a Next
// route handler. The request's AbortSignal fires when the client goes away, so a sandbox that holds a
// request open (the "does not answer in time" card) frees it as soon as the caller gives up.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BodyTooLargeError, declaresTooLargeBody, readLimitedStream } from "../../http/read-limited-body";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface RunningSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StartSandboxServerOptions {
  name: string;
  handler: FetchHandler;
  port?: number;
  host?: string;
  /** A larger limit than SANDBOX_MAX_BODY_BYTES, for a sandbox that takes file uploads (a reporting API's evidence). */
  maxBodyBytes?: number;
}

/** Sandbox requests are small JSON or form bodies; anything larger is refused (413) unread. */
export const SANDBOX_MAX_BODY_BYTES = 256 * 1024;

async function readBody(message: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (declaresTooLargeBody(new Headers({ "content-length": message.headers["content-length"] ?? "0" }), maxBytes)) {
    throw new BodyTooLargeError(maxBytes);
  }
  return readLimitedStream(message, maxBytes);
}

export async function startSandboxServer({
  name,
  handler,
  port = 0,
  host = "127.0.0.1",
  maxBodyBytes = SANDBOX_MAX_BODY_BYTES,
}: StartSandboxServerOptions): Promise<RunningSandbox> {
  const server: Server = createServer(async (message, response) => {
    const aborter = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) aborter.abort();
    });
    try {
      const body = await readBody(message, maxBodyBytes);
      const headers = new Headers();
      for (const [key, value] of Object.entries(message.headers)) {
        if (typeof value === "string") headers.set(key, value);
        else if (Array.isArray(value)) headers.set(key, value.join(", "));
      }
      const request = new Request(`http://${message.headers.host ?? host}${message.url ?? "/"}`, {
        method: message.method,
        headers,
        body: message.method === "GET" || message.method === "HEAD" ? undefined : new Uint8Array(body),
        signal: aborter.signal,
      });
      const answer = await handler(request);
      if (aborter.signal.aborted) return;
      response.statusCode = answer.status;
      answer.headers.forEach((value, key) => response.setHeader(key, value));
      response.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      if (aborter.signal.aborted) return;
      if (error instanceof BodyTooLargeError) {
        response.writeHead(413, { "content-type": "text/plain", connection: "close" }).end(`${error.message}\n`);
        return;
      }
      response.statusCode = 500;
      response.setHeader("content-type", "text/plain");
      response.end(`${name} sandbox error: ${error instanceof Error ? error.message : "unknown"}`);
    }
  });
  // Idle keep-alive connections are kept as the real gateways keep them (their load balancers hold
  // them for a minute or more), so a connector reuses its connection as in production. Node's own
  // 5 s: clients subtract a safety margin from the hint (undici 2 s), so the 1 s used before made
  // them close every connection after one call (issue 37: a new TCP connection and a reset error
  // per acquirer call in the worker). close() ends idle connections at once (closeAllConnections).
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Holds a request open without blocking the event loop: until the client gives up or `maxMs` passes. */
export function holdUntilAborted(signal: AbortSignal, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, maxMs);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Constant-time comparison of a presented credential. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let index = 0; index < a.length; index++) diff |= a[index]! ^ b[index]!;
  return diff === 0;
}

/**
 * Answers a repeated request (same method, path and Idempotency-Key) with the first answer, the way
 * acquirers with idempotency keys do; requests without a key are handled each time.
 */
export function withIdempotencyKeys(handler: FetchHandler): FetchHandler {
  const answers = new Map<string, Promise<{ status: number; headers: [string, string][]; body: ArrayBuffer }>>();
  return async (request) => {
    const key = request.headers.get("idempotency-key");
    if (request.method !== "POST" || !key) return handler(request);
    // The credentials are part of the slot: another caller never sees someone else's answer.
    const slot = `${request.headers.get("authorization") ?? ""}\n${new URL(request.url).pathname}\n${key}`;
    let answer = answers.get(slot);
    if (!answer) {
      answer = handler(request).then(async (response) => ({
        status: response.status,
        headers: [...response.headers],
        body: await response.arrayBuffer(),
      }));
      answers.set(slot, answer);
      // A request that did not get a real answer (the client gave up) may be tried again.
      answer.then(
        (stored) => stored.status >= 500 && answers.delete(slot),
        () => answers.delete(slot),
      );
    }
    const stored = await answer;
    return new Response(stored.body.slice(0), { status: stored.status, headers: stored.headers });
  };
}
