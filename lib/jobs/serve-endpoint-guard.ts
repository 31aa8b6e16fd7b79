// What /api/inngest checks before the Inngest SDK sees a request (security review 3, H1 and M4). The
// SDK reads a POST's or PUT's whole body and JSON-parses it before it checks the signature (the HMAC
// covers the body), so without this guard anyone could make a web process buffer any number of
// bytes. Here, in order:
//  1. A process that needs no serve endpoint does not have one: in embedded mode only the processes
//     that run the executor are called (web processes answer 404, whatever the request).
//  2. A POST or PUT without a well-formed X-Inngest-Signature is answered 401 before its body is
//     read (an Inngest server and our executor always sign). A PUT must also be an in-band sync: an
//     out-of-band one makes the SDK call the Inngest API to register this app, on anyone's request.
//  3. A declared body over INNGEST_MAX_REQUEST_BYTES is answered 413 unread, and a chunked one is
//     read to that cap only, within a budget shared by all reads of this process (503 past it); the
//     SDK then gets a new Request over the bytes read.
// The SDK checks the signature itself afterwards (time window, HMAC over the body): a forged but
// well-formed header costs at most the cap in memory, once per request.
// Inngest's dev server (INNGEST_DEV, refused in production) does not sign: then only the cap applies.
import { NextRequest } from "next/server";
import { config } from "../env";
import {
  BodyBudgetExhaustedError,
  BodyTooLargeError,
  ByteBudget,
  payloadTooLargeResponse,
  readLimitedBody,
} from "../http/read-limited-body";
import { runsEmbeddedExecutor } from "../runtime/role";

/**
 * 4 MB: Inngest's documented limit for the data a step returns (docs "Usage limits"), and Vercel's
 * for a request. Our functions carry ids and short results (a call is a few KB); a run whose state
 * grew past this would be refused here, and would be a bug to fix in the function.
 */
export const INNGEST_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * What all bodies being read here may hold at once (two at the cap): a forged but well-formed header
 * costs its sender the cap per request, and many such uploads at once must not add up. Past it a
 * request is answered 503 with Retry-After, which an Inngest server retries; real calls are a few KB.
 */
const UNVERIFIED_BODY_BUDGET = new ByteBudget(2 * INNGEST_MAX_REQUEST_BYTES);

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

function guard(method: "GET" | "POST" | "PUT", handler: Handler): Handler {
  return async (request, context) => {
    if (!servesInngestEndpoint())
      return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", connection: "close" } });
    if (method === "GET") return handler(request, context);
    if (!config().INNGEST_DEV) {
      if (!wellFormedInngestSignature(request.headers.get("x-inngest-signature")))
        return refusal(401, "a signed request is required (X-Inngest-Signature)");
      if (method === "PUT" && request.headers.get("x-inngest-sync-kind") !== "in_band") {
        return refusal(401, "only a signed in-band sync is accepted; sync the app from the Inngest server");
      }
    }
    let body: Buffer;
    try {
      body = await readLimitedBody(request, INNGEST_MAX_REQUEST_BYTES, UNVERIFIED_BODY_BUDGET);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return payloadTooLargeResponse(INNGEST_MAX_REQUEST_BYTES);
      if (error instanceof BodyBudgetExhaustedError) {
        return new Response("Busy: try again shortly.\n", {
          status: 503,
          headers: { "retry-after": "1", "cache-control": "no-store", connection: "close" },
        });
      }
      throw error;
    }
    return handler(new NextRequest(request.url, { method, headers: request.headers, body: Uint8Array.from(body) }), context);
  };
}

export function guardServeEndpoint(handlers: ServeEndpointHandlers): ServeEndpointHandlers {
  return { GET: guard("GET", handlers.GET), POST: guard("POST", handlers.POST), PUT: guard("PUT", handlers.PUT) };
}
