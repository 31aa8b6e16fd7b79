// The answers of the health endpoints (spec 4.9 and docs/operations.md §4), in one place for the
// two servers that give them: the Next.js routes under app/api/health and the worker's own server
// (lib/jobs/worker-server.ts, decision 0219).
import { traceHeaders } from "../api/merchant-route";
import { checkHealth } from "./check-health";
import { checkReadiness } from "./check-readiness";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET /api/health: the state of every interface; 503 when any part is in error (load balancers act on the status alone). */
export async function healthResponse(request: Request): Promise<Response> {
  const { healthy, report } = await checkHealth();
  return Response.json(report, { status: healthy ? 200 : 503, headers: { ...NO_STORE, ...traceHeaders(request) } });
}

/** GET /api/health/ready: 200 when this process should get traffic, else 503 with the reason. */
export async function readinessResponse(): Promise<Response> {
  const readiness = await checkReadiness();
  return Response.json(readiness, { status: readiness.ready ? 200 : 503, headers: NO_STORE });
}

/** GET /api/health/live: 200 while the process answers at all, also while it drains. */
export function livenessResponse(): Response {
  return Response.json({ status: "live" }, { headers: NO_STORE });
}
