// GET /metrics: Prometheus metrics of this process (bearer token METRICS_TOKEN; docs/operations.md).
import { metricsResponse } from "@/lib/health/metrics-endpoint";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
