// POST /demo-shop/notifications: the demo merchant's notification receiver (local mode only; verifies the signature, answers 200).
import { receiveDemoNotification } from "@/lib/sandboxes/demo-receiver";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return receiveDemoNotification(request);
}
