// Serves the in-process 3-D Secure sandbox under the service's own origin (app/sandbox/threeds).
import { threeDsSandboxHandler } from "../../threeds/ds-client";
import { BodyTooLargeError, payloadTooLargeResponse, readLimitedBody } from "../../http/read-limited-body";
import { SANDBOX_MAX_BODY_BYTES } from "../acquirers/serve";

export const THREEDS_SANDBOX_MOUNT = "/sandbox/threeds";

/** Hands a request under /sandbox/threeds to the running sandbox, or 404 when none runs here. */
export async function serveMountedThreeDsSandbox(request: Request): Promise<Response> {
  const handler = threeDsSandboxHandler();
  if (!handler) return new Response("no 3-D Secure sandbox runs in this service", { status: 404 });
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(THREEDS_SANDBOX_MOUNT.length) || "/";
  let body: Uint8Array<ArrayBuffer> | undefined;
  try {
    body =
      request.method === "GET" || request.method === "HEAD"
        ? undefined
        : Uint8Array.from(await readLimitedBody(request, SANDBOX_MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLargeError) return payloadTooLargeResponse(SANDBOX_MAX_BODY_BYTES);
    throw error;
  }
  return handler(new Request(url, { method: request.method, headers: request.headers, body, signal: request.signal }));
}
