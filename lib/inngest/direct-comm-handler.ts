// Calls of Inngest functions answered by the SDK's comm handler in this process directly, as the
// SDK's own `connect` transport does (inngest/components/connect/config.js: an InngestCommHandler
// with skipSignatureValidation whose handler hands over the call body and takes back the raw
// answer): the same execution engine, middleware and function code as serve(), without the HTTP
// protocol around them (no canonical JSON, no signatures, no Request or Response objects). For the
// embedded executor of the same process only: nothing crosses a trust boundary there, while
// /api/inngest keeps serve() and its signature checks for a real Inngest server.
// docs/decisions/0171-direct-sdk-calls.md.
import { InngestCommHandler, type Inngest, type InngestFunction } from "inngest";
import type { DirectAnswer, DirectCall, DirectInvoke } from "@cps/inngest-embedded";

/** Only the call URL's fnId and stepId are read (by the SDK and the observability middleware). */
const DIRECT_CALL_URL = "http://embedded.invalid/api/inngest";

export function directInvoker(options: { client: Inngest.Any; functions: InngestFunction.Any[] }): DirectInvoke {
  const handler = new InngestCommHandler<[DirectCall], DirectAnswer>({
    client: options.client,
    functions: options.functions,
    frameworkName: "cps-embedded",
    skipSignatureValidation: true,
    handler: (call: DirectCall) => {
      const url = new URL(DIRECT_CALL_URL);
      url.searchParams.set("fnId", call.functionId);
      url.searchParams.set("stepId", call.stepId);
      return {
        body: () => call.body,
        method: () => "POST",
        // What callFunction sends over HTTP besides the signature: the run and the step.
        headers: (key: string) => {
          const name = key.toLowerCase();
          if (name === "content-type") return "application/json";
          if (name === "x-run-id") return call.body.ctx.run_id;
          if (name === "x-inngest-step-id") return call.stepId;
          return null;
        },
        url: () => url,
        transformResponse: ({ status, headers, body }: { status: number; headers: Record<string, string>; body: string }) => ({
          status,
          headers,
          body,
        }),
      };
    },
  });
  return handler.createHandler() as DirectInvoke;
}
