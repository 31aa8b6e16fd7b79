// GET /api/health/live: liveness of this process: 200 while it answers at all, also while it
// drains after SIGTERM (restarting it then would cut its work short). Checks nothing else.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "live" }, { headers: { "Cache-Control": "no-store" } });
}
