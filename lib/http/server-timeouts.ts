// Time-outs of the Node HTTP server that `next start` creates (security review 3, L7). Next sets only
// keepAliveTimeout, leaving Node's defaults: 300 s to receive a request and 60 s for its headers, and
// no cap on connections, so slow clients could hold sockets for minutes. Applied to each server on its
// first request (the edge hook in instrumentation.ts sees it before Next does); Node checks them on
// its connection sweep (every 30 s), so a slow client is cut off within the time-out plus at most 30 s.
// A front proxy with its own slow-client limits stays mandatory in production (docs/security.md).
import type http from "node:http";
import { config } from "../env";

const configured = new WeakSet<http.Server>();

export function applyServerTimeouts(server: http.Server | undefined | null): void {
  if (!server || configured.has(server)) return;
  configured.add(server);
  const settings = config();
  server.requestTimeout = settings.HTTP_REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(settings.HTTP_HEADERS_TIMEOUT_MS, settings.HTTP_REQUEST_TIMEOUT_MS);
  if (settings.HTTP_MAX_CONNECTIONS > 0) server.maxConnections = settings.HTTP_MAX_CONNECTIONS;
}
