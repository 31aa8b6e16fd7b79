// POST /dynamic/{sessionid}/payments: goPay() opens the session's payment (called by our controller frame).
import { fromOurOrigin, jsonResponse } from "@/lib/cardholder/frame-api";
import { frameRequest } from "@/lib/cardholder/frame-request";
import { startSessionPayment } from "@/lib/cardholder/start-session-payment";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string }> }): Promise<Response> {
  const { sessionid } = await params;
  return frameRequest({ request, sessionId: sessionid, route: "/dynamic/{sessionid}/payments" }, async () => {
    if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
    return jsonResponse(await startSessionPayment({ sessionId: sessionid }));
  });
}
