// GET /demo-shop: the merchant demo page (another origin than the fields; query parameters are initdynamic fields).
import { renderDemoShop } from "@/lib/sandboxes/demo-shop";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  return renderDemoShop(request);
}
