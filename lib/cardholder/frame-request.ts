// Every JSON request our frames make (/dynamic/{sessionid}/payments...): a request id and the
// session on every log line, one span, one access line with metrics, and the per-session rate
// limit, answered 429 with the spec's error body and Retry-After.
import { ApiError } from "../errors";
import { newId } from "../ids";
import { consumeRateLimit, rateLimitedResponse } from "../api/rate-limits";
import { observeApiRequest, observedRequest } from "../observability/observe-api-request";

export interface FrameRequestOptions {
  request: Request;
  sessionId: string;
  /** The route pattern, e.g. "/dynamic/{sessionid}/payments". */
  route: string;
}

export function frameRequest({ request, sessionId, route }: FrameRequestOptions, handle: () => Promise<Response>): Promise<Response> {
  const requestId = newId();
  return observedRequest({ requestId, sessionId, method: request.method, route }, async () => {
    const started = performance.now();
    let response: Response;
    let errorCode: string | null = null;
    try {
      await consumeRateLimit("hosted-session", sessionId);
      response = await handle();
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "RATE_LIMITED") throw error;
      errorCode = error.code;
      response = rateLimitedResponse(error);
    }
    try {
      response.headers.set("x-request-id", requestId);
    } catch {
      // A response with immutable headers (a redirect) goes out without the id; the log line has it.
    }
    observeApiRequest({
      id: requestId,
      merchantId: null,
      method: request.method,
      path: route,
      route,
      traceApi: null,
      statusCode: response.status,
      errorCode,
      durationMs: Math.round(performance.now() - started),
      component: "cardholder",
    });
    return response;
  });
}
