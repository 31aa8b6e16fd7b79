// POST /dynamic/{sessionid}/payments/{paymentid}/authorize: the one request that carries the card (from our controller frame).
import { describeErrorForLog } from "@/lib/cards/redact-card-numbers";
import { authorizeRequestSchema, ERROR_TEXTS } from "@/lib/cardholder/protocol";
import { cardholderBrowser, clientIp, fromOurOrigin, jsonResponse, readJsonBody } from "@/lib/cardholder/frame-api";
import { frameRequest } from "@/lib/cardholder/frame-request";
import { paySession } from "@/lib/cardholder/pay-session";
import { log } from "@/lib/observability/logger";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ sessionid: string; paymentid: string }> };

export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { sessionid, paymentid } = await params;
  return frameRequest({ request, sessionId: sessionid, route: "/dynamic/{sessionid}/payments/{paymentid}/authorize" }, () =>
    authorize(request, sessionid, paymentid),
  );
}

async function authorize(request: Request, sessionid: string, paymentid: string): Promise<Response> {
  if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
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
        browser: cardholderBrowser(request, body.browser),
      }),
    );
  } catch (error) {
    // The card must not reach a log: the message's first line only, card-number-like digits masked.
    log("cardholder").error({ paymentId: paymentid, error: describeErrorForLog(error) }, `authorization of payment ${paymentid} failed`);
    return jsonResponse({ result: "failed", paymentid, errorcode: "PAYMENT_ERROR", errortext: ERROR_TEXTS.PAYMENT_ERROR }, 500);
  }
}
