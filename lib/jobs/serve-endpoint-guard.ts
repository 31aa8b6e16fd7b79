// What /api/inngest checks before the Inngest SDK sees a request (security reviews 3 and 4, H1). The
// SDK reads a POST's or PUT's whole body, JSON-parses it and canonicalizes it before it compares the
// HMAC: a 4 MB body of `{}` objects is a million objects, seconds of CPU and hundreds of MB of heap,
// for anyone who can form a header. So here, in order:
//  1. A process that needs no serve endpoint does not have one: in embedded mode only the processes
//     that run the executor are called (web processes answer 404, whatever the request).
//  2. A POST or PUT without a well-formed X-Inngest-Signature fresh within 5 minutes is answered 401
//     before its body is read (an Inngest server and our executor always sign). A PUT must also be
//     an in-band sync: an out-of-band one makes the SDK call the Inngest API to register this app.
//  3. A declared body over INNGEST_MAX_REQUEST_BYTES is answered 413 unread, and a chunked one is
//     read to that cap only, within a budget shared by all requests of this process (503 past it).
//     The budget stays held until the SDK's handler has answered, so it bounds the parse and the
//     run as well as the read.
//  4. The HMAC is checked over the raw bytes read (lib/inngest/signing-key.ts), with the signing key
//     and the fallback key of a rotation, before anything parses them: a forged signature costs its
//     sender at most the cap in bytes, never a parse. The SDK then gets a new Request over the bytes
//     and checks the signature again its own way.
// Inngest's dev server (INNGEST_DEV, refused in production) does not sign: then only the cap applies.
import { NextRequest } from "next/server";
import { config } from "../env";
import {
  BodyBudgetExhaustedError,
  BodyTooLargeError,
  ByteBudget,
  payloadTooLargeResponse,
  readLimitedBodyHeld,
  type HeldBody,
} from "../http/read-limited-body";
import { inngestSigningKeys, verifyInngestSignature } from "../inngest/signing-key";
import { runsEmbeddedExecutor } from "../runtime/role";

/**
 * 256 KB. The largest call our functions make is a cron round with a step per row: the stuck-payment
 * round (three look-ups of up to 100 rows and a step for each, with the memoized results and the
 * stack of 300 step ids) or the reconciliation round (up to 200 operations); each comes to about 60
 * KB of canonical JSON, and a notification's or a follow-up's call is a few KB. Four times the largest
 * leaves room; a forged call costs at most this in bytes (the HMAC is checked before any parse). A
 * genuine call over it is answered 413 and its run fails visibly, which would be a function to fix.
 */
export const INNGEST_MAX_REQUEST_BYTES = 256 * 1024;

/**
 * What all bodies here may hold at once, from the first byte read until the SDK has answered (eight
 * calls at the cap; hundreds of real ones). Past it a request is answered 503 with Retry-After, which
 * an Inngest server retries.
 */
const BODY_BUDGET = new ByteBudget(8 * INNGEST_MAX_REQUEST_BYTES);

type Handler = (request: NextRequest, context: unknown) => Promise<Response>;
export type ServeEndpointHandlers = { GET: Handler; POST: Handler; PUT: Handler };

/** The SDK refuses signatures more than 5 minutes from its clock; so does the guard, before reading. */
const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/**
 * `t=<unix seconds>&s=<64 hex>`, the form Inngest servers and our executor send, with `t` within the
 * SDK's 5-minute window of this clock (an old header replayed is refused before its body is read).
 */
export function wellFormedInngestSignature(header: string | null, now = Date.now()): boolean {
  if (!header || header.length > 512) return false;
  const params = new URLSearchParams(header);
  const t = params.get("t") ?? "";
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(params.get("s") ?? "")) return false;
  return Math.abs(now / 1000 - Number(t)) <= SIGNATURE_WINDOW_SECONDS;
}

/** Whether this process serves /api/inngest: with an Inngest server always, in embedded mode where the executor runs. */
export function servesInngestEndpoint(): boolean {
  return config().inngestMode === "server" || runsEmbeddedExecutor();
}

function refusal(status: number, message: string): Response {
  return Response.json({ message }, { status, headers: { "cache-control": "no-store", connection: "close" } });
}

function busy(): Response {
  return new Response("Busy: try again shortly.\n", {
    status: 503,
    headers: { "retry-after": "1", "cache-control": "no-store", connection: "close" },
  });
}

function guard(method: "GET" | "POST" | "PUT", handler: Handler): Handler {
  return async (request, context) => {
    if (!servesInngestEndpoint())
      return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", connection: "close" } });
    if (method === "GET") return handler(request, context);
    const signed = !config().INNGEST_DEV;
    const signature = request.headers.get("x-inngest-signature");
    const keys = signed ? inngestSigningKeys() : [];
    if (signed) {
      if (!wellFormedInngestSignature(signature)) return refusal(401, "a signed request is required (X-Inngest-Signature)");
      if (method === "PUT" && request.headers.get("x-inngest-sync-kind") !== "in_band") {
        return refusal(401, "only a signed in-band sync is accepted; sync the app from the Inngest server");
      }
      // Server mode without a key: nothing could be verified (the SDK would fail too); unread.
      if (keys.length === 0) return refusal(500, "INNGEST_SIGNING_KEY is not set: calls cannot be verified");
    }
    let held: HeldBody;
    try {
      held = await readLimitedBodyHeld(request, INNGEST_MAX_REQUEST_BYTES, BODY_BUDGET);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return payloadTooLargeResponse(INNGEST_MAX_REQUEST_BYTES);
      if (error instanceof BodyBudgetExhaustedError) return busy();
      throw error;
    }
    try {
      if (signed && !verifyInngestSignature({ body: held.body, header: signature!, keys })) {
        return refusal(401, "the request signature does not match its body");
      }
      return await handler(new NextRequest(request.url, { method, headers: request.headers, body: Uint8Array.from(held.body) }), context);
    } finally {
      held.release();
    }
  };
}

export function guardServeEndpoint(handlers: ServeEndpointHandlers): ServeEndpointHandlers {
  return { GET: guard("GET", handlers.GET), POST: guard("POST", handlers.POST), PUT: guard("PUT", handlers.PUT) };
}
