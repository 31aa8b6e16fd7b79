// Serves the cardholder-flow route handlers (app/dynamic/...) on node:http at 127.0.0.1 the way
// Next.js calls them, and points the configuration's public base URL at it, so that tests talk to
// the real handlers over real HTTP with the origins a browser would use.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { resetConfig } from "@/lib/env";
import { toWebRequest, writeWebResponse } from "./web-request-bridge";
import * as dynamicJs from "@/app/dynamic/[sessionid]/dynamic.js/route";
import * as pan from "@/app/dynamic/[sessionid]/pan/route";
import * as expmonth from "@/app/dynamic/[sessionid]/expmonth/route";
import * as expyear from "@/app/dynamic/[sessionid]/expyear/route";
import * as securitycode from "@/app/dynamic/[sessionid]/securitycode/route";
import * as ccsingle from "@/app/dynamic/[sessionid]/ccsingle/route";
import * as controller from "@/app/dynamic/[sessionid]/controller/route";
import * as payments from "@/app/dynamic/[sessionid]/payments/route";
import * as pay from "@/app/dynamic/[sessionid]/pay/route";
import * as authorize from "@/app/dynamic/[sessionid]/payments/[paymentid]/authorize/route";
import * as challenge from "@/app/dynamic/[sessionid]/payments/[paymentid]/challenge/route";
import * as challengeNotify from "@/app/dynamic/[sessionid]/payments/[paymentid]/challenge-notify/route";
import * as method from "@/app/dynamic/[sessionid]/payments/[paymentid]/method/route";
import * as methodNotify from "@/app/dynamic/[sessionid]/payments/[paymentid]/method-notify/route";
import * as abortChallenge from "@/app/dynamic/[sessionid]/payments/[paymentid]/abort-challenge/route";
import * as sandboxThreeDs from "@/app/sandbox/threeds/[...path]/route";

// Each route types its own params; the harness hands every route the segments its pattern captured.
type AnyHandler = (request: Request, context: never) => Promise<Response>;
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST", AnyHandler>>;

const ROUTES: [RegExp, RouteModule][] = [
  [/^\/dynamic\/(?<sessionid>[^/]+)\/dynamic\.js$/, dynamicJs],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/pan$/, pan],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/expmonth$/, expmonth],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/expyear$/, expyear],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/securitycode$/, securitycode],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/ccsingle$/, ccsingle],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/controller$/, controller],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments$/, payments],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/pay$/, pay],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments\/(?<paymentid>[^/]+)\/authorize$/, authorize],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments\/(?<paymentid>[^/]+)\/challenge$/, challenge],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments\/(?<paymentid>[^/]+)\/challenge-notify$/, challengeNotify],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments\/(?<paymentid>[^/]+)\/abort-challenge$/, abortChallenge],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments\/(?<paymentid>[^/]+)\/method$/, method],
  [/^\/dynamic\/(?<sessionid>[^/]+)\/payments\/(?<paymentid>[^/]+)\/method-notify$/, methodNotify],
  // The 3-D Secure sandbox mounted on our origin, as the service serves it (its ACS pages run here).
  [/^\/sandbox\/threeds\/(?<path>.+)$/, sandboxThreeDs],
];

export interface HostedFieldsServer {
  /** Our origin, e.g. http://127.0.0.1:41234 (the configured PUBLIC_BASE_URL while the server runs). */
  origin: string;
  /** POSTs JSON as the frame does (same origin) and answers the JSON body. */
  postJson(path: string, body: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startHostedFieldsServer(): Promise<HostedFieldsServer> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const match = ROUTES.map(([pattern, module]) => ({ groups: pattern.exec(url.pathname)?.groups, module })).find(
        (route) => route.groups,
      );
      const handler = match?.module[(req.method ?? "GET") as "GET" | "POST"] as Handler | undefined;
      if (!match || !handler) {
        res.writeHead(404).end();
        return;
      }
      const response = await handler(await toWebRequest(req, url), { params: Promise.resolve({ ...match.groups }) });
      await writeWebResponse(res, response);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(error instanceof Error ? error.name : "error");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const previous = process.env.PUBLIC_BASE_URL;
  process.env.PUBLIC_BASE_URL = origin;
  resetConfig();
  return {
    origin,
    postJson: async (path, body) => {
      const response = await fetch(`${origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify(body),
      });
      return (await response.json()) as Record<string, unknown>;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (previous === undefined) delete process.env.PUBLIC_BASE_URL;
        else process.env.PUBLIC_BASE_URL = previous;
        resetConfig();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
