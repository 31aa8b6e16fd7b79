// GET /api/health/live: liveness of this process: 200 while it answers at all, also while it
// drains after SIGTERM (restarting it then would cut its work short). Checks nothing else.
import { livenessResponse } from "@/lib/health/health-responses";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return livenessResponse();
}
