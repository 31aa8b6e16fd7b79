// POST /dynamic/{sessionid}/payments/{paymentid}/challenge-notify: the ACS posts the CRes here (3-D Secure notificationURL).
import { serveChallengeNotify } from "@/lib/cardholder/serve-challenge-pages";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string; paymentid: string }> }): Promise<Response> {
  const { sessionid, paymentid } = await params;
  return serveChallengeNotify(request, sessionid, paymentid);
}
