// GET /api/health/ready: readiness of this process (load balancers, orchestrators): 200 or 503.
// 503 at once after SIGTERM, while the process still finishes its work (lib/runtime/graceful-shutdown.ts).
import { readinessResponse } from "@/lib/health/health-responses";

export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return readinessResponse();
}
