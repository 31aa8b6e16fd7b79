// POST /dynamic/{sessionid}/payments/{paymentid}/authorize: the one request that carries the card (from our controller frame).
import { describeErrorForLog } from "@/lib/cards/redact-card-numbers";
import { authorizeRequestSchema, ERROR_TEXTS } from "@/lib/cardholder/protocol";
import { clientIp, fromOurOrigin, jsonResponse, readJsonBody } from "@/lib/cardholder/frame-api";
import { paySession } from "@/lib/cardholder/pay-session";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ sessionid: string; paymentid: string }> };

export async function POST(request: Request, { params }: Params): Promise<Response> {
  if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
  const { sessionid, paymentid } = await params;
  const body = await readJsonBody(request, authorizeRequestSchema);
  if (body instanceof Response) return body; // 413: larger than any card request
  if (!body) return jsonResponse({ result: "failed", paymentid, errorcode: "PAYMENT_ERROR", errortext: ERROR_TEXTS.PAYMENT_ERROR }, 400);
  try {
    return jsonResponse(
      await paySession({
        sessionId: sessionid,
        paymentId: paymentid,
        card: body.card,
        binding: body.binding,
        customerIp: clientIp(request),
      }),
    );
  } catch (error) {
    // The card must not reach a log: the message's first line only, card-number-like digits masked.
    console.error(`[cardholder] authorization of payment ${paymentid} failed: ${describeErrorForLog(error)}`);
    return jsonResponse({ result: "failed", paymentid, errorcode: "PAYMENT_ERROR", errortext: ERROR_TEXTS.PAYMENT_ERROR }, 500);
  }
}
