// Every JSON request our frames make (/dynamic/{sessionid}/payments...): a request id and the
// session on every log line, one span, one access line with metrics, and the per-session rate
// limit, answered 429 with the spec's error body and Retry-After; an overloaded database (no
// connection in time, before anything was done) is answered 503 with a "try again" result.
import { redactCardNumbers } from "../cards/redact-card-numbers";
import { ApiError, isDatabaseOverload, OVERLOAD_RETRY_AFTER_SECONDS } from "../errors";
import { log } from "../observability/logger";
import { ERROR_TEXTS } from "./protocol";
import { newId } from "../ids";
import { consumeRateLimit, rateLimitedResponse } from "../api/rate-limits";
import { isSessionIdFormat, MALFORMED_SESSION_ANSWER } from "../validation/session-id";
import { observeApiRequest, observedRequest } from "../observability/observe-api-request";

export interface FrameRequestOptions {
  request: Request;
  sessionId: string;
  /** The route pattern, e.g. "/dynamic/{sessionid}/payments". */
  route: string;
}

/**
 * The handlers let only work that has not started reach here (goPay()'s authorization answers its own
 * failures on the stream), so the cardholder may press pay again: the failed result the frames read,
 * as one JSON line (the NDJSON of /pay reads it as its first line), with Retry-After.
 */
function overloadedResponse(error: Error): Response {
  const lines = error.message.split("\n").filter((line) => line.trim());
  const reason = redactCardNumbers((lines.pop() ?? "").trim());
  log("cardholder").warn({ reason }, "no database connection in time (overload), answered 503");
  const result = { result: "failed", paymentid: null, errorcode: "SERVICE_UNAVAILABLE", errortext: ERROR_TEXTS.SERVICE_UNAVAILABLE };
  return new Response(`${JSON.stringify(result)}\n`, {
    status: 503,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "retry-after": String(OVERLOAD_RETRY_AFTER_SECONDS),
    },
  });
}

/** The answer to an id that cannot be a session: nothing about it is counted, logged or kept. */
function malformedSessionResponse(): Response {
  return new Response(MALFORMED_SESSION_ANSWER.body, {
    status: MALFORMED_SESSION_ANSWER.status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}

export function frameRequest({ request, sessionId, route }: FrameRequestOptions, handle: () => Promise<Response>): Promise<Response> {
  // First of all: the rate limiter keys on the session id, so a malformed one (any length the URL
  // allows, 15 KB and more) must be refused before it is counted or put on a log line (review 3, M1).
  if (!isSessionIdFormat(sessionId)) return Promise.resolve(malformedSessionResponse());
  const requestId = newId();
  return observedRequest({ requestId, sessionId, method: request.method, route }, async () => {
    const started = performance.now();
    let response: Response;
    let errorCode: string | null = null;
    try {
      await consumeRateLimit("hosted-session", sessionId);
      response = await handle();
    } catch (error) {
      if (isDatabaseOverload(error)) {
        errorCode = "SERVICE_UNAVAILABLE";
        response = overloadedResponse(error);
      } else {
        if (!(error instanceof ApiError) || error.code !== "RATE_LIMITED") throw error;
        errorCode = error.code;
        response = rateLimitedResponse(error);
      }
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
