// GET /dynamic/{sessionid}/payments/{paymentid}/challenge: the 3-D Secure challenge page in the merchant's challenge element.
import { serveChallengePage } from "@/lib/cardholder/serve-challenge-pages";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ sessionid: string; paymentid: string }> }): Promise<Response> {
  const { sessionid, paymentid } = await params;
  return serveChallengePage(request, sessionid, paymentid);
}
