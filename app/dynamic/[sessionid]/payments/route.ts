// POST /dynamic/{sessionid}/payments: goPay() opens the session's payment (called by our controller frame).
import { fromOurOrigin, jsonResponse } from "@/lib/cardholder/frame-api";
import { startSessionPayment } from "@/lib/cardholder/start-session-payment";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string }> }): Promise<Response> {
  if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
  return jsonResponse(await startSessionPayment({ sessionId: (await params).sessionid }));
}
