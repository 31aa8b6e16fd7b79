// POST /dynamic/{sessionid}/payments/{paymentid}/abort-challenge: the cardholder cancelled the 3-D Secure challenge.
import { fromOurOrigin, jsonResponse } from "@/lib/cardholder/frame-api";
import { abortSessionChallenge } from "@/lib/cardholder/abort-session-challenge";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string; paymentid: string }> }): Promise<Response> {
  if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
  const { sessionid, paymentid } = await params;
  return jsonResponse({ aborted: await abortSessionChallenge({ sessionId: sessionid, paymentId: paymentid }) });
}
