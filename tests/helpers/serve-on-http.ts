// Mounts an App Router route's handlers (e.g. serve() from "inngest/next") on node:http at
// 127.0.0.1, calling them the way Next.js does: with a web Request, writing back the Response.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { toWebRequest, writeWebResponse } from "./web-request-bridge";

// Next.js route handlers take (request, context); inngest's are typed loosely, hence `never`.
type RouteHandler = (request: never, context: never) => Promise<Response> | Response;

export interface MountedRoute {
  /** The full URL of the route, e.g. http://127.0.0.1:43123/api/inngest */
  url: string;
  close(): Promise<void>;
}

export async function serveOnHttp(options: {
  handlers: Partial<Record<"GET" | "POST" | "PUT", RouteHandler>>;
  path?: string;
}): Promise<MountedRoute> {
  const routePath = options.path ?? "/api/inngest";
  const server = http.createServer(async (req, res) => {
    try {
      const handler = options.handlers[(req.method ?? "GET") as "GET" | "POST" | "PUT"];
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      if (!handler || url.pathname !== routePath) {
        res.writeHead(404).end();
        return;
      }
      const response = await (handler as (request: Request, context: unknown) => Promise<Response>)(await toWebRequest(req, url), {
        params: Promise.resolve({}),
      });
      await writeWebResponse(res, response);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${routePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
