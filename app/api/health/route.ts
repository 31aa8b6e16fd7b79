// GET /api/health: the state of every interface (spec 4.9). 503 when any part is in error,
// so that load balancers can act on the status code alone.
import { traceHeaders } from "@/lib/api/merchant-route";
import { checkHealth } from "@/lib/health/check-health";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { healthy, report } = await checkHealth();
  return Response.json(report, { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store", ...traceHeaders(request) } });
}

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
