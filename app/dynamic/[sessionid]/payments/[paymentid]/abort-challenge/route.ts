// POST /dynamic/{sessionid}/payments/{paymentid}/abort-challenge: the cardholder cancelled the 3-D Secure challenge.
import { fromOurOrigin, jsonResponse } from "@/lib/cardholder/frame-api";
import { frameRequest } from "@/lib/cardholder/frame-request";
import { abortSessionChallenge } from "@/lib/cardholder/abort-session-challenge";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string; paymentid: string }> }): Promise<Response> {
  const { sessionid, paymentid } = await params;
  return frameRequest({ request, sessionId: sessionid, route: "/dynamic/{sessionid}/payments/{paymentid}/abort-challenge" }, async () => {
    if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
    return jsonResponse({ aborted: await abortSessionChallenge({ sessionId: sessionid, paymentId: paymentid }) });
  });
}
