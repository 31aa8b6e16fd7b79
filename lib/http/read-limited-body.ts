// Reads a request body with a byte cap, for every endpoint that reads a body before it knows who
// is asking (merchant API before the key check, the hosted fields' JSON endpoints, the 3-D Secure
// notification page, the sandboxes). A declared Content-Length over the cap is refused before a
// byte is read; a body without one (chunked) is read until the cap and then abandoned, so an
// attacker's 150 MB costs at most the cap in memory.

/** The body is larger than the endpoint takes: answer 413. */
export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`request body larger than ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
    this.maxBytes = maxBytes;
  }
}

/** True when the request declares a body larger than `maxBytes` (Content-Length). */
export function declaresTooLargeBody(headers: Headers, maxBytes: number): boolean {
  const declared = headers.get("content-length");
  if (declared === null) return false;
  const length = Number(declared);
  return !Number.isFinite(length) || length > maxBytes;
}

/**
 * Reads at most `maxBytes` of `source` (a web ReadableStream or any async iterable of bytes, such
 * as node's IncomingMessage) and throws BodyTooLargeError past it; the rest is never read.
 */
export async function readLimitedStream(source: AsyncIterable<Uint8Array> | null | undefined, maxBytes: number): Promise<Buffer> {
  if (!source) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  // Leaving the loop early (return or throw) cancels the stream.
  for await (const chunk of source) {
    length += chunk.byteLength;
    if (length > maxBytes) throw new BodyTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** The request's body as bytes, at most `maxBytes`; throws BodyTooLargeError otherwise. */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<Buffer> {
  if (declaresTooLargeBody(request.headers, maxBytes)) {
    // Stop the upload here: nothing of it is read.
    await request.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  return readLimitedStream(request.body as AsyncIterable<Uint8Array> | null, maxBytes);
}

/** The request's body as UTF-8 text, at most `maxBytes`; throws BodyTooLargeError otherwise. */
export async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  return (await readLimitedBody(request, maxBytes)).toString("utf8");
}

/** The plain 413 of pages and endpoints outside /api (the merchant API answers in its own error shape). */
export function payloadTooLargeResponse(maxBytes: number): Response {
  return new Response(`Request body too large (at most ${maxBytes} bytes).\n`, {
    status: 413,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", connection: "close" },
  });
}
