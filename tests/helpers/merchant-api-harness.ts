// Serves the merchant API's route handlers on node:http at 127.0.0.1, dispatching paths the way the
// App Router does, so integration tests call every endpoint over real HTTP as a merchant's server
// would, without a Next build.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";
import { toWebRequest, writeWebResponse } from "./web-request-bridge";
import { flushApiRequestLog } from "@/lib/api/api-request-log";
import { assertAnswerMatchesOpenApi } from "./openapi-contract";
import { madeInBeforeAll } from "./made-in-before-all";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;
type RouteModule = Partial<Record<string, Handler | unknown>>;

interface Route {
  pattern: RegExp;
  load: () => Promise<RouteModule>;
}

const ROUTES: Route[] = [
  { pattern: /^\/api\/health$/, load: () => import("@/app/api/health/route") },
  { pattern: /^\/api\/initdynamic$/, load: () => import("@/app/api/initdynamic/route") },
  { pattern: /^\/api\/mit$/, load: () => import("@/app/api/mit/route") },
  // Static segments before dynamic ones, as the App Router orders them: /api/disputes/… is never a payment's path.
  { pattern: /^\/api\/disputes$/, load: () => import("@/app/api/disputes/route") },
  { pattern: /^\/api\/disputes\/(?<disputeid>[^/]+)$/, load: () => import("@/app/api/disputes/[disputeid]/route") },
  { pattern: /^\/api\/disputes\/(?<disputeid>[^/]+)\/evidence$/, load: () => import("@/app/api/disputes/[disputeid]/evidence/route") },
  { pattern: /^\/api\/disputes\/(?<disputeid>[^/]+)\/decision$/, load: () => import("@/app/api/disputes/[disputeid]/decision/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)\/capture$/, load: () => import("@/app/api/[paymentid]/capture/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)\/refund$/, load: () => import("@/app/api/[paymentid]/refund/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)\/void$/, load: () => import("@/app/api/[paymentid]/void/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)\/payout$/, load: () => import("@/app/api/[paymentid]/payout/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)\/payment$/, load: () => import("@/app/api/[paymentid]/payment/route") },
  // As Next.js does, the catch-alls answer what no endpoint matches.
  { pattern: /^\/api$/, load: () => import("@/app/api/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)$/, load: () => import("@/app/api/[paymentid]/route") },
  { pattern: /^\/api\/(?<paymentid>[^/]+)\/.+$/, load: () => import("@/app/api/[paymentid]/[...rest]/route") },
];

export interface ApiResponse<Body = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: Body;
}

export interface CallOptions {
  apiKey?: string | null;
  body?: unknown;
  /** Sent as the raw request body instead of JSON of `body`. */
  rawBody?: string;
  /** Sent as multipart/form-data (fetch writes the boundary into Content-Type). */
  form?: FormData;
  headers?: Record<string, string>;
}

export interface MerchantApiHarness {
  baseUrl: string;
  call<Body = Record<string, unknown>>(method: "GET" | "POST", path: string, options?: CallOptions): Promise<ApiResponse<Body>>;
  close(): Promise<void>;
}

export async function startMerchantApi(): Promise<MerchantApiHarness> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const route = ROUTES.find((candidate) => candidate.pattern.test(url.pathname));
      const handler = route ? ((await route.load())[req.method ?? "GET"] as Handler | undefined) : undefined;
      if (!route || !handler) {
        res.writeHead(route ? 405 : 404).end();
        return;
      }
      // As Next.js 16 does: static routes get params resolving to undefined, dynamic ones their segments.
      const groups = route.pattern.exec(url.pathname)?.groups;
      const params = (groups ? { ...groups } : undefined) as Record<string, string>;
      const response = await handler(await toWebRequest(req, url), { params: Promise.resolve(params) });
      await writeWebResponse(res, response);
    } catch (error) {
      res.writeHead(599, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    async call<Body>(method: "GET" | "POST", path: string, options: CallOptions = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.apiKey) headers.Authorization = `Basic ${options.apiKey}`;
      let body: string | FormData | undefined;
      if (options.form !== undefined) body = options.form;
      else if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (typeof body === "string") headers["Content-Type"] ??= "application/json";
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      const parsed = (text ? JSON.parse(text) : {}) as Body;
      // Every answer a test sees is checked against the published OpenAPI document.
      if (response.status !== 599) assertAnswerMatchesOpenApi(method, path, response.status, parsed);
      return { status: response.status, headers: response.headers, body: parsed };
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      // The request traces are written in batches: write the last ones before the database goes.
      await flushApiRequestLog();
    },
  };
}

/**
 * For a test file (after useTestDatabase()): the merchant API, served from before the file's first
 * test until after its last. What it returns stands for the harness started then, so that the file
 * can name it where it declares everything else.
 */
export function useMerchantApi(): Omit<MerchantApiHarness, "close"> {
  const api = madeInBeforeAll("the merchant API", startMerchantApi);
  afterAll(async () => api.ifMade()?.close());
  return {
    get baseUrl() {
      return api.get().baseUrl;
    },
    call: <Body = Record<string, unknown>>(method: "GET" | "POST", path: string, options?: CallOptions) =>
      api.get().call<Body>(method, path, options),
  };
}
