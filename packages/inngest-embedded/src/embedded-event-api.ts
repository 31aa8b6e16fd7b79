// The event API of embedded mode. The client's baseUrl points at a host that does not exist, and
// its fetch answers `POST /e/:key` in-process by storing the events in the database (the same
// answer an Inngest server gives: {ids, status: 200}). So inngest.send and step.sendEvent work
// from route handlers, functions and the CLI alike, with no HTTP hop and no extra port.
import { z } from "zod";
import { acceptEvents, incomingEventSchema } from "./accept-events";
import type { ExecutorDatabase } from "./database";

export const EMBEDDED_EVENT_API_HOST = "embedded-inngest.invalid";
export const EMBEDDED_EVENT_API_BASE_URL = `http://${EMBEDDED_EVENT_API_HOST}/`;
/** Not a secret: it only satisfies the SDK, which refuses to send without a key in cloud mode. */
export const EMBEDDED_EVENT_KEY = "embedded";

const eventBatchSchema = z.array(incomingEventSchema).or(incomingEventSchema.transform((event) => [event]));

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export async function handleEmbeddedEventApi(database: ExecutorDatabase, url: URL, init: RequestInit | undefined): Promise<Response> {
  if ((init?.method ?? "GET").toUpperCase() !== "POST" || !/^\/e\/[^/]+$/.test(url.pathname)) {
    return json(501, { error: `${url.pathname} is not available in embedded mode (only POST /e/:key is)`, status: 501 });
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof init?.body === "string" ? init.body : "");
  } catch {
    return json(400, { error: "the body is not JSON", status: 400 });
  }
  const parsed = eventBatchSchema.safeParse(body);
  if (!parsed.success) return json(400, { error: `invalid events: ${parsed.error.issues[0]?.message}`, status: 400 });
  const ids = await acceptEvents({ database, events: parsed.data });
  return json(200, { ids, status: 200 });
}

/**
 * The client's fetch: embedded event API calls are answered here by storing the events in
 * `database()`, everything else goes out.
 */
export function embeddedAwareFetch(database: () => ExecutorDatabase): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (url.hostname === EMBEDDED_EVENT_API_HOST) return handleEmbeddedEventApi(database(), url, init);
    return fetch(input, init);
  };
}
