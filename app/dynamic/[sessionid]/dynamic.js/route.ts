// GET /dynamic/{sessionid}/dynamic.js: the script a merchant page includes (spec 4.2).
import { serveDynamicScript } from "@/lib/cardholder/serve-dynamic-script";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ sessionid: string }> }): Promise<Response> {
  return serveDynamicScript(request, (await params).sessionid);
}
