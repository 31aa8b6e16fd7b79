// Answers for /api/ requests that reach no endpoint: an unknown path (404) or a method the endpoint
// does not take (405, with Allow). Both in the spec's error shape, as JSON, like every other refusal
// of the merchant API (Next would answer its HTML page or an empty 405).
import { ApiError } from "../errors";
import { newId } from "../ids";

type Handler = (request: Request) => Response;

function answer(error: ApiError, headers: Record<string, string> = {}): Response {
  return Response.json(error.toBody(), {
    status: error.status,
    headers: { "X-Request-Id": newId(), "Cache-Control": "no-store", ...headers },
  });
}

const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof ALL_METHODS)[number];

/** Handlers for every method, answering 404 NOT_FOUND: for the catch-all routes under app/api. */
export function notFoundRoutes(): Record<Method, Handler> {
  const handler: Handler = (request) => answer(new ApiError("NOT_FOUND", `${new URL(request.url).pathname}: no such endpoint`));
  return Object.fromEntries(ALL_METHODS.map((method) => [method, handler])) as Record<Method, Handler>;
}

/**
 * Handlers for the methods an endpoint does not take, answering 405 METHOD_NOT_ALLOWED with Allow.
 * A route file spreads them next to its own: `export const { PUT, PATCH, DELETE } = methodNotAllowed(["POST"])`.
 */
export function methodNotAllowed(allowed: Method[]): Record<Method, Handler> {
  const taken = takenMethods(allowed);
  const allow = [...taken].join(", ");
  const handler: Handler = (request) =>
    answer(new ApiError("METHOD_NOT_ALLOWED", `${request.method} ${new URL(request.url).pathname}: not allowed; use ${allow}`), {
      Allow: allow,
    });
  return Object.fromEntries(ALL_METHODS.filter((method) => !taken.has(method)).map((method) => [method, handler])) as Record<
    Method,
    Handler
  >;
}

/**
 * The methods an endpoint answers, its own and those answered for it: HEAD for a GET route and
 * OPTIONS for every route (Next answers both by itself; so does the worker's server). In this order
 * they are the Allow header of its 405 and OPTIONS answers.
 */
export function takenMethods(allowed: Method[]): Set<Method> {
  return new Set<Method>([...allowed, ...(allowed.includes("GET") ? (["HEAD"] as const) : []), "OPTIONS"]);
}
