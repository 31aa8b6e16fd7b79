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

/**
 * Bytes that may be held at once, across requests, by reads whose sender is not known yet (a body the
 * Inngest SDK must parse before it can check the signature). A read that would go past it stops with
 * BodyBudgetExhaustedError: answer 503 with Retry-After, so many concurrent uploads at the per-request
 * cap cannot add up to more than the budget.
 */
export class ByteBudget {
  private held = 0;
  constructor(readonly maxBytes: number) {}
  reserve(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }
  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

/** The shared budget was used up by other reads: try again shortly (503). */
export class BodyBudgetExhaustedError extends Error {
  constructor() {
    super("too many request bodies are being read at once");
    this.name = "BodyBudgetExhaustedError";
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
 * Reads at most `maxBytes` of `source` (a web ReadableStream or a Node stream such as an
 * IncomingMessage) and throws BodyTooLargeError past it; the rest is never read. The stream is let go
 * without being cancelled or destroyed: destroying a request whose body has not arrived destroys its
 * socket, and the client would see a reset instead of the 413 (lib/http/lingering-close.ts).
 */
export async function readLimitedStream(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream | null | undefined,
  maxBytes: number,
  budget?: ByteBudget,
): Promise<Buffer> {
  const { body, release } = await readHeld(source, maxBytes, budget);
  // What was held for this read is given back once the caller has the bytes.
  release();
  return body;
}

/** The bytes read and a release() that gives their share of the budget back (once; later calls do nothing). */
export interface HeldBody {
  body: Buffer;
  release(): void;
}

async function readHeld(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream | null | undefined,
  maxBytes: number,
  budget?: ByteBudget,
): Promise<HeldBody> {
  if (!source) return { body: Buffer.alloc(0), release: () => undefined };
  const chunks: Uint8Array[] = [];
  let length = 0;
  let held = 0;
  const take = (chunk: Uint8Array) => {
    length += chunk.byteLength;
    if (length > maxBytes) throw new BodyTooLargeError(maxBytes);
    if (budget && !budget.reserve(chunk.byteLength)) {
      length -= chunk.byteLength;
      throw new BodyBudgetExhaustedError();
    }
    held += chunk.byteLength;
    chunks.push(chunk);
  };
  const release = () => {
    budget?.release(held);
    held = 0;
  };
  try {
    return { body: await readChunks(source, take, chunks), release };
  } catch (error) {
    // A failed read gives back at once what it held.
    release();
    throw error;
  }
}

async function readChunks(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream,
  take: (chunk: Uint8Array) => void,
  chunks: Uint8Array[],
): Promise<Buffer> {
  if ("getReader" in source) {
    const reader = source.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) take(next.value);
    } finally {
      reader.releaseLock();
    }
  } else {
    const iterator = "iterator" in source && typeof source.iterator === "function" ? source.iterator({ destroyOnReturn: false }) : source;
    for await (const chunk of iterator as AsyncIterable<Uint8Array | string>) take(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks);
}

/** The request's body as bytes, at most `maxBytes`; throws BodyTooLargeError otherwise. */
export async function readLimitedBody(request: Request, maxBytes: number, budget?: ByteBudget): Promise<Buffer> {
  // A declared length over the cap: nothing of the body is read (nor cancelled, see above).
  if (declaresTooLargeBody(request.headers, maxBytes)) throw new BodyTooLargeError(maxBytes);
  return readLimitedStream(request.body, maxBytes, budget);
}

/**
 * Like readLimitedBody, but the bytes stay counted in `budget` until the caller calls release(): for
 * a body whose processing after the read (a parse, a handler) costs memory in proportion to it, so
 * that the budget bounds that work too and not only the read.
 */
export async function readLimitedBodyHeld(request: Request, maxBytes: number, budget: ByteBudget): Promise<HeldBody> {
  if (declaresTooLargeBody(request.headers, maxBytes)) throw new BodyTooLargeError(maxBytes);
  return readHeld(request.body, maxBytes, budget);
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
