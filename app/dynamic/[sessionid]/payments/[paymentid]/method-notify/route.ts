// POST /dynamic/{sessionid}/payments/{paymentid}/method-notify: the ACS's 3DS Method notification (threeDSMethodNotificationURL).
import { serveMethodNotify } from "@/lib/cardholder/serve-method-pages";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ sessionid: string; paymentid: string }> }): Promise<Response> {
  const { sessionid, paymentid } = await params;
  return serveMethodNotify(request, sessionid, paymentid);
}
