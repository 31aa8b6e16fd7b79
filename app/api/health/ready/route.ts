// GET /api/health/ready: readiness of this process (load balancers, orchestrators): 200 or 503.
// 503 at once after SIGTERM, while the process still finishes its work (lib/runtime/graceful-shutdown.ts).
import { checkReadiness } from "@/lib/health/check-readiness";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const readiness = await checkReadiness();
  return Response.json(readiness, { status: readiness.ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
