// The app's Inngest functions behind the SDK's handlers. /api/inngest answers with serve() over
// HTTP (app/api/inngest/route.ts), signatures checked, for an Inngest server and for the function
// list, behind the guard of ./serve-endpoint-guard.ts. The embedded executor of this process calls
// the same functions through a second comm handler of the SDK directly (invokeFunctionDirectly):
// the body object in, the raw answer out, no signature, as the SDK's own `connect` transport does
// (docs/decisions/0171-direct-sdk-calls.md). Both run the same function code in the same engine.
//
// The handler is made at first use, not at import: its serve origin comes from the configuration
// (lib/env.ts, read at run time), never from a request's Host header (security review 3, M4: the
// SDK otherwise builds the URL it registers and answers syncs with from that header).
import type { NextRequest } from "next/server";
import { InngestCommHandler } from "inngest";
import { serve } from "inngest/next";
import type { DirectAnswer, DirectCall, DirectInvoke } from "@cps/inngest-embedded";
import { config } from "../env";
import { inngest } from "../inngest/client";
import { functions } from "./index";
import { guardServeEndpoint } from "./serve-endpoint-guard";

export const INNGEST_SERVE_PATH = "/api/inngest";

type ServeHandlers = ReturnType<typeof serve>;

const state = globalThis as unknown as { __cpsServeHandlers?: ServeHandlers; __cpsDirectInvoke?: DirectInvoke };

/** The SDK's handlers, made once per process with the configured origin (INNGEST_SERVE_ORIGIN, else PUBLIC_BASE_URL). */
function serveHandlers(): ServeHandlers {
  state.__cpsServeHandlers ??= serve({
    client: inngest,
    functions,
    serveOrigin: config().inngestServeOrigin,
    servePath: INNGEST_SERVE_PATH,
  });
  return state.__cpsServeHandlers;
}

/** GET/POST/PUT of /api/inngest: the SDK's handlers behind the endpoint guard. */
export const inngestRouteHandlers = guardServeEndpoint({
  GET: (request, context) => serveHandlers().GET(request, context),
  POST: (request, context) => serveHandlers().POST(request, context),
  PUT: (request, context) => serveHandlers().PUT(request, context),
});

/** A call request as an Inngest server would POST it, answered by the handler in this process. */
export function callServeHandlerInProcess(request: Request): Promise<Response> {
  // The Next adapter reads only the standard Request members (url, headers, text()); the second
  // argument is the pages router's response object, absent in the app router.
  return serveHandlers().POST(request as NextRequest, undefined);
}

/** The origin the direct handler's call URLs carry (only their fnId and stepId are read, by the SDK and the middleware). */
const DIRECT_CALL_ORIGIN = "http://embedded.invalid";

/**
 * A call of one of the app's functions, answered by the SDK's comm handler in this process: the
 * same execution engine, middleware and functions as serve(), without the HTTP protocol around
 * them. The SDK checks no signature here (skipSignatureValidation): the caller is the embedded
 * executor of this process, not a request from outside; /api/inngest keeps checking them.
 */
export const invokeFunctionDirectly: DirectInvoke = (call) => {
  state.__cpsDirectInvoke ??= new InngestCommHandler<[DirectCall], DirectAnswer>({
    client: inngest,
    functions,
    frameworkName: "cps-embedded",
    skipSignatureValidation: true,
    handler: (direct: DirectCall) => {
      const url = new URL(INNGEST_SERVE_PATH, DIRECT_CALL_ORIGIN);
      url.searchParams.set("fnId", direct.functionId);
      url.searchParams.set("stepId", direct.stepId);
      return {
        body: () => direct.body,
        method: () => "POST",
        // What callFunction sends over HTTP besides the signature: the run and the step.
        headers: (key: string) => {
          const name = key.toLowerCase();
          if (name === "content-type") return "application/json";
          if (name === "x-run-id") return direct.body.ctx.run_id;
          if (name === "x-inngest-step-id") return direct.stepId;
          return null;
        },
        url: () => url,
        transformResponse: ({ status, headers, body }: { status: number; headers: Record<string, string>; body: string }) => ({ status, headers, body }),
      };
    },
  }).createHandler() as DirectInvoke;
  return state.__cpsDirectInvoke(call);
};
