// Mounts an App Router route's handlers (e.g. serve() from "inngest/next") on node:http at
// 127.0.0.1, calling them the way Next.js does: with a web Request, writing back the Response.
import http from "node:http";
import type { AddressInfo } from "node:net";

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
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) headers.set(name, value.join(", "));
      }
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
      const response = await (handler as (request: Request, context: unknown) => Promise<Response>)(
        new Request(url, { method: req.method, headers, body }),
        {
          params: Promise.resolve({}),
        },
      );
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
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
