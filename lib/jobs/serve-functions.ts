// The app's Inngest functions behind the SDK's serve handler. /api/inngest answers with it over
// HTTP (app/api/inngest/route.ts), for an Inngest server and for the function list; the embedded
// executor of this process hands its calls to the same handler directly (callInProcess in
// lib/inngest/executor/call-function.ts), without the loopback HTTP round trip.
import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { inngest } from "../inngest/client";
import { functions } from "./index";

export const inngestServeHandler = serve({ client: inngest, functions });

/** A call request as an Inngest server would POST it, answered by the handler in this process. */
export function callServeHandlerInProcess(request: Request): Promise<Response> {
  // The Next adapter reads only the standard Request members (url, headers, text()); the second
  // argument is the pages router's response object, absent in the app router.
  return inngestServeHandler.POST(request as NextRequest, undefined);
}
