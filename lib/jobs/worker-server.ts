// The HTTP server of a worker process (ROLE=worker), which runs no Next.js (decision 0219). A worker
// answers only what operators and its own executor ask of it, with the same handlers as the Next.js
// routes of a web process:
//   GET /api/health, /api/health/ready, /api/health/live   health, readiness, liveness
//   GET /metrics                                           Prometheus, behind METRICS_TOKEN
//   GET, POST, PUT /api/inngest                            the executor's in-band sync (guarded as
//                                                          in every process: lib/jobs/serve-endpoint-guard.ts)
// Any other path is 404 and any other method 405, in the merchant API's error shape. HEAD is a GET
// without its body, as Next.js answers it.
import http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { methodNotAllowed, notFoundRoutes, takenMethods } from "../api/unmatched-api-route";
import { healthResponse, livenessResponse, readinessResponse } from "../health/health-responses";
import { metricsResponse } from "../health/metrics-endpoint";
import { lingerIfAnsweredEarly } from "../http/lingering-close";
import { applyServerTimeouts } from "../http/server-timeouts";
import { log } from "../observability/logger";
import { inngestRouteHandlers } from "./serve-functions";

type Handler = (request: Request) => Response | Promise<Response>;
type Method = "GET" | "POST" | "PUT";

const inngest = inngestRouteHandlers as unknown as Record<Method, (request: Request, context: unknown) => Promise<Response>>;

/** Path → the handler of each method it takes. */
const ROUTES: Record<string, Partial<Record<Method, Handler>>> = {
  "/api/health": { GET: healthResponse },
  "/api/health/ready": { GET: () => readinessResponse() },
  "/api/health/live": { GET: () => livenessResponse() },
  "/metrics": { GET: metricsResponse },
  "/api/inngest": {
    GET: (request) => inngest.GET(request, {}),
    POST: (request) => inngest.POST(request, {}),
    PUT: (request) => inngest.PUT(request, {}),
  },
};

/** The Fetch API request of an incoming one; its body streams (the guard reads it to a cap only). */
function fetchRequest(incoming: http.IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method === "HEAD" ? "GET" : (incoming.method ?? "GET");
  const withBody = method !== "GET" && method !== "OPTIONS";
  return new Request(url, {
    method,
    headers,
    ...(withBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

/** The handler for a request, or the 404 / 405 answer of the merchant API's unmatched routes. */
function route(method: string, pathname: string): Handler {
  const routes = ROUTES[pathname];
  if (!routes) return notFoundRoutes().GET;
  const taken = Object.keys(routes) as Method[];
  if (method === "OPTIONS") return () => new Response(null, { status: 204, headers: { Allow: [...takenMethods(taken)].join(", ") } });
  const handler = routes[(method === "HEAD" ? "GET" : method) as Method];
  if (handler) return handler;
  // 405 with Allow; a method outside the usual seven (TRACE, ...) gets PATCH's answer, which no
  // worker route takes.
  const refusals = methodNotAllowed(taken) as Record<string, Handler | undefined>;
  return refusals[method] ?? refusals.PATCH!;
}

async function answer(incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
  let url: URL;
  try {
    url = new URL(incoming.url ?? "/", "http://worker.invalid");
  } catch {
    outgoing.writeHead(400, { "content-type": "text/plain" }).end("Bad Request");
    return;
  }
  const request = fetchRequest(incoming, url);
  const response = await route(incoming.method ?? "GET", url.pathname)(request);
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  outgoing.writeHead(response.status, headers);
  if (!response.body || incoming.method === "HEAD") {
    outgoing.end();
    await response.body?.cancel();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), outgoing);
}

/** A worker's HTTP server, not yet listening. */
export function createWorkerServer(): http.Server {
  const server = http.createServer((incoming, outgoing) => {
    lingerIfAnsweredEarly(incoming);
    answer(incoming, outgoing).catch((error: unknown) => {
      log("worker-server").error({ err: error, path: incoming.url }, "worker request failed");
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      else outgoing.destroy();
    });
  });
  applyServerTimeouts(server);
  return server;
}
