// The app's Inngest functions behind the SDK's serve handler. /api/inngest answers with it over
// HTTP (app/api/inngest/route.ts), for an Inngest server and for the function list, behind the
// guard of ./serve-endpoint-guard.ts; the embedded executor of this process hands its calls to the
// same handler directly (callFunction in @cps/inngest-embedded), without the
// loopback HTTP round trip.
//
// The handler is made at first use, not at import: its serve origin comes from the configuration
// (lib/env.ts, read at run time), never from a request's Host header (security review 3, M4: the
// SDK otherwise builds the URL it registers and answers syncs with from that header).
import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { config } from "../env";
import { inngest } from "../inngest/client";
import { functions } from "./index";
import { guardServeEndpoint } from "./serve-endpoint-guard";

export const INNGEST_SERVE_PATH = "/api/inngest";

type ServeHandlers = ReturnType<typeof serve>;

const state = globalThis as unknown as { __cpsServeHandlers?: ServeHandlers };

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
