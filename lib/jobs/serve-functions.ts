// The app's Inngest functions behind the SDK's handlers. /api/inngest answers with serve() over
// HTTP (app/api/inngest/route.ts), signatures checked, for an Inngest server and for the function
// list, behind the guard of ./serve-endpoint-guard.ts. The embedded executor of this process calls
// the same functions through a second comm handler of the SDK directly (invokeFunctionDirectly):
// the body object in, the raw answer out, no signature, as the SDK's own `connect` transport does
// (lib/inngest/direct-comm-handler.ts). Both run the same function code in the same engine.
//
// The handler is made at first use, not at import: its serve origin comes from the configuration
// (lib/env.ts, read at run time), never from a request's Host header (security review 3, M4: the
// SDK otherwise builds the URL it registers and answers syncs with from that header).
import { serve } from "inngest/next";
import type { DirectInvoke } from "@cps/inngest-embedded";
import { config } from "../env";
import { inngest } from "../inngest/client";
import { directInvoker } from "../inngest/direct-comm-handler";
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

/**
 * A call of one of the app's functions, answered by the SDK's comm handler in this process
 * (lib/inngest/direct-comm-handler.ts): how the worker's embedded executor calls them.
 */
export const invokeFunctionDirectly: DirectInvoke = (call) => {
  state.__cpsDirectInvoke ??= directInvoker({ client: inngest, functions });
  return state.__cpsDirectInvoke(call);
};
