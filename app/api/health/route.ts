// GET /api/health: the state of every interface (spec 4.9). 503 when any part is in error,
// so that load balancers can act on the status code alone.
import { healthResponse } from "@/lib/health/health-responses";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return healthResponse(request);
}

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
