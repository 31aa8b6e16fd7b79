// GET /dynamic/{sessionid}/controller: the invisible frame that pays for goPay() (plain HTML, no React).
import { serveFramePage } from "@/lib/cardholder/serve-frame-page";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ sessionid: string }> }): Promise<Response> {
  return serveFramePage(request, (await params).sessionid, "controller");
}
