// GET /dynamic/{sessionid}/payments/{paymentid}/method: the hidden 3DS Method page in the controller frame.
import { serveMethodPage } from "@/lib/cardholder/serve-method-pages";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ sessionid: string; paymentid: string }> }): Promise<Response> {
  const { sessionid, paymentid } = await params;
  return serveMethodPage(request, sessionid, paymentid);
}
