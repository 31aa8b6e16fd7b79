// What every log line of one request (or one background job) carries: the request id, the
// merchant's TraceApi, the merchant, the hosted-field session, the Inngest run. Kept in an
// AsyncLocalStorage so that code far below the route handler logs with it without passing it on.
// One store per process (on globalThis): Next.js may load this module more than once.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestContext {
  requestId?: string;
  traceApi?: string;
  merchantId?: string;
  sessionId?: string;
  /** The Inngest run and function when the work is a background job. */
  runId?: string;
  functionId?: string;
}

const state = globalThis as unknown as { __cpsRequestContext?: AsyncLocalStorage<RequestContext> };

function storage(): AsyncLocalStorage<RequestContext> {
  state.__cpsRequestContext ??= new AsyncLocalStorage<RequestContext>();
  return state.__cpsRequestContext;
}

/** Runs `fn` with `context` as the current request context (a copy: callers may add fields later). */
export function withRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage().run({ ...context }, fn);
}

/** The current context, if any. The object is live: fields set on it show on later lines. */
export function requestContext(): RequestContext | undefined {
  return storage().getStore();
}

/** Adds fields to the current context (e.g. the merchant once the API key is known). */
export function addToRequestContext(fields: Partial<RequestContext>): void {
  const current = storage().getStore();
  if (current) Object.assign(current, fields);
}
