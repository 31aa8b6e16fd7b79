// POST /dynamic/{sessionid}/pay: goPay() in one request (from our controller frame): opens the payment and authorizes it with the card, answered as two JSON lines.
import { frameRequest } from "@/lib/cardholder/frame-request";
import { servePayRequest } from "@/lib/cardholder/serve-pay-request";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string }> }): Promise<Response> {
  const { sessionid } = await params;
  return frameRequest({ request, sessionId: sessionid, route: "/dynamic/{sessionid}/pay" }, () => servePayRequest(request, sessionid));
}
