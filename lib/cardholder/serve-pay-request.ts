// goPay() in one request from our controller frame (POST /dynamic/<sessionid>/pay): opens the
// session's payment, answers its id at once on the open response (the frame reports
// jspaymentstarted then), authorizes with the card and answers the result on the same response.
// Two JSON lines (NDJSON): a StartPaymentResponse, then, when it started, a PayResult. It saves the
// browser the second round trip of the two-request flow (POST payments, then POST authorize), and
// the server a second pass through routing, rate limit and request log (issue 14, docs/performance.md).
// The authorize endpoint stays for the authorization after a 3-D Secure challenge.
import { describeErrorForLog } from "../cards/redact-card-numbers";
import { log } from "../observability/logger";
import { cardholderBrowser, clientIp, fromOurOrigin, jsonResponse, readJsonBody } from "./frame-api";
import { paySession } from "./pay-session";
import { authorizeRequestSchema, ERROR_TEXTS, type PayResult, type StartPaymentResponse } from "./protocol";
import { startSessionPayment } from "./start-session-payment";

const line = (value: StartPaymentResponse | PayResult) => `${JSON.stringify(value)}\n`;

const technicalError = (paymentid: string | null): PayResult => ({
  result: "failed",
  paymentid,
  errorcode: "PAYMENT_ERROR",
  errortext: ERROR_TEXTS.PAYMENT_ERROR,
});

export async function servePayRequest(request: Request, sessionId: string): Promise<Response> {
  if (!fromOurOrigin(request)) return jsonResponse({ error: "forbidden" }, 403);
  const body = await readJsonBody(request, authorizeRequestSchema);
  if (body instanceof Response) return body; // 413: larger than any card request
  if (!body) return jsonResponse(technicalError(null), 400);
  const started = await startSessionPayment({ sessionId });
  const headers = {
    "content-type": "application/x-ndjson; charset=utf-8",
    // no-transform: no compression layer may hold the first line back until the second is written.
    "cache-control": "no-store, no-transform",
    "x-content-type-options": "nosniff",
  };
  if (started.result === "failed") return new Response(line(started), { headers });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(line(started)));
      let result: PayResult;
      try {
        result = await paySession({
          sessionId,
          paymentId: started.paymentid,
          card: body.card,
          binding: body.binding,
          customerIp: clientIp(request),
          browser: cardholderBrowser(request, body.browser),
        });
      } catch (error) {
        // The card must not reach a log: the message's first line only, card-number-like digits masked.
        log("cardholder").error(
          { paymentId: started.paymentid, error: describeErrorForLog(error) },
          `authorization of payment ${started.paymentid} failed`,
        );
        result = technicalError(started.paymentid);
      }
      controller.enqueue(encoder.encode(line(result)));
      controller.close();
    },
  });
  return new Response(stream, { headers });
}
