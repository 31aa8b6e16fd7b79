// GET /metrics: the Prometheus exposition of this process, behind a bearer token. With
// METRICS_TOKEN unset the endpoint does not exist in production (404) and is open locally.
import { timingSafeEqual, createHash } from "node:crypto";
import { config } from "../env";
import { scrapeMetrics } from "./database-gauges";
import { log } from "../observability/logger";

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export async function metricsResponse(request: Request): Promise<Response> {
  const { METRICS_TOKEN, isProduction } = config();
  if (!METRICS_TOKEN && isProduction) return new Response("Not Found", { status: 404 });
  if (METRICS_TOKEN) {
    const given = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    if (!sameSecret(given, METRICS_TOKEN)) {
      return new Response("Unauthorized", { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } });
    }
  }
  try {
    const { contentType, body } = await scrapeMetrics();
    return new Response(body, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (error) {
    log("metrics").error({ err: error }, "metrics scrape failed");
    return new Response("metrics unavailable", { status: 503 });
  }
}
