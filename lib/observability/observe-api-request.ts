// The access line and the metrics of one merchant API request (called by lib/api/merchant-route.ts
// with the same row it stores as ApiRequest) or hosted-field request (lib/cardholder/frame-request.ts),
// and the request's context and span around it.
import { withRequestContext } from "./request-context";
import { logAccess } from "./logger";
import { metrics } from "./metrics";
import { inSpan, SpanKind } from "./tracing";

export interface ObservedApiRequest {
  id: string;
  merchantId: string | null;
  /** The API key's mode (absent: hosted-field requests; null: no key identified the request). */
  mode?: "test" | "live" | null;
  method: string;
  path: string;
  traceApi: string | null;
  statusCode: number;
  errorCode: string | null;
  durationMs: number;
  /** The route pattern when the path is not a merchant API path (hosted fields). */
  route?: string;
  /** The log component (default merchant-api). */
  component?: string;
}

/** The route pattern of a merchant API path (bounded label values: never a payment id). */
export function apiRouteLabel(path: string): string {
  if (/^\/api\/(initdynamic|mit|health)$/.test(path)) return path;
  const match = /^\/api\/[^/]+\/(capture|refund|void|payout|payment)$/.exec(path);
  return match ? `/api/{paymentid}/${match[1]}` : "other";
}

export function observeApiRequest(row: ObservedApiRequest): void {
  const route = row.route ?? apiRouteLabel(row.path);
  metrics().httpRequests.inc({ route, method: row.method, status: String(row.statusCode), error: row.errorCode ?? "", mode: row.mode ?? "" });
  metrics().httpDuration.observe({ route, method: row.method, status_class: `${Math.floor(row.statusCode / 100)}xx` }, row.durationMs / 1000);
  const line = {
    event: "http.access" as const,
    method: row.method,
    route,
    status: row.statusCode,
    errorCode: row.errorCode ?? undefined,
    durationMs: row.durationMs,
    merchantId: row.merchantId ?? undefined,
    mode: row.mode ?? undefined,
    traceApi: row.traceApi ?? undefined,
    requestId: row.id,
  };
  // 503 is overload (nothing was done, the client retries), not a fault: warn, so errors stay faults.
  const level = row.statusCode === 503 ? "warn" : row.statusCode >= 500 ? "error" : "info";
  // Its fields are all the service's own or masked (AccessLine): no pass over the redaction paths (logger.ts).
  logAccess(row.component ?? "merchant-api", level, line, `${row.method} ${route} ${row.statusCode}`);
}

/** Runs one request's handling with its request id and TraceApi on every log line, inside a server span. */
export function observedRequest<T>(
  options: { requestId: string; traceApi?: string; sessionId?: string; method: string; route: string },
  fn: () => Promise<T>,
): Promise<T> {
  return withRequestContext({ requestId: options.requestId, traceApi: options.traceApi, sessionId: options.sessionId }, () =>
    inSpan(
      `${options.method} ${options.route}`,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": options.method, "http.route": options.route, "cps.request_id": options.requestId } },
      fn,
    ),
  );
}
