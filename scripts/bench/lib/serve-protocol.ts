// What one call of the Inngest SDK costs, in this process, with one trivial function (issues 29
// and 37), through each transport the embedded executor has (callFunction of @cps/inngest-embedded
// reads every answer the same way):
//  - serve: the serve handler of `inngest/next` (the one /api/inngest answers with), handed a
//    signed call request as a Request and its answer parsed, as the executor called it before
//    issue 37;
//  - direct: the SDK's comm handler called directly (lib/inngest/direct-comm-handler.ts: the body
//    object in, the raw answer out, no signature), as the worker's executor calls it now, first with
//    process.env as Node gives it, then as the plain copy the worker installs (installPlainProcessEnv).
// The last one was the SDK's share of the Inngest floor until decision 0235, which measures the call
// inside the background floor's own process instead (floor-sdk-call.ts), where it costs about twice
// as much; the bench still prints the loop's figures beside it.
import { randomBytes } from "node:crypto";
import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { installPlainProcessEnv } from "../../../lib/env";
import { directInvoker } from "../../../lib/inngest/direct-comm-handler";
import { callTrivialFunction, trivialFunction, type Transport } from "./trivial-function";

export interface ServeProtocolCost {
  calls: number;
  callsPerSecond: number;
  cpuMsPerCall: number;
}

export interface SdkCallCosts {
  /** serve() with a signed Request, process.env as Node gives it. */
  serve: ServeProtocolCost;
  /** The comm handler called directly, process.env as Node gives it. */
  direct: ServeProtocolCost;
  /** The same, process.env a plain object (as in the worker): the Inngest floor's SDK call. */
  directPlainEnv: ServeProtocolCost;
  /** Variables in process.env while measuring (the SDK lists them all on every call). */
  environmentVariables: number;
}

async function measure(transport: Transport, signingKey: string, calls: number): Promise<ServeProtocolCost> {
  await callTrivialFunction(transport, signingKey, "0");
  for (let index = 1; index <= 300; index++) await callTrivialFunction(transport, signingKey, String(index)); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < calls; index++) await callTrivialFunction(transport, signingKey, String(1000 + index));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    calls,
    callsPerSecond: Math.round(calls / seconds),
    cpuMsPerCall: Number(((used.user + used.system) / 1000 / calls).toFixed(3)),
  };
}

/** The serve() transport alone (issue 29's figure). */
export async function measureServeProtocol(calls: number): Promise<ServeProtocolCost> {
  const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
  const { client, noop } = trivialFunction(signingKey);
  const handlers = serve({ client, functions: [noop], serveOrigin: "http://127.0.0.1:9", servePath: "/api/inngest" });
  return measure({ handler: (request: Request) => handlers.POST(request as NextRequest, undefined) }, signingKey, calls);
}

/**
 * Every transport, in this order. The last step replaces process.env by a plain copy for the rest
 * of this process, as the worker does at start: call it after anything that needs the real one.
 */
export async function measureSdkCalls(calls: number): Promise<SdkCallCosts> {
  const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
  const { client, noop } = trivialFunction(signingKey);
  const serveCost = await measureServeProtocol(calls);
  const invoke = directInvoker({ client, functions: [noop] });
  const direct = await measure({ invoke }, signingKey, calls);
  installPlainProcessEnv();
  const directPlainEnv = await measure({ invoke }, signingKey, calls);
  return { serve: serveCost, direct, directPlainEnv, environmentVariables: Object.keys(process.env).length };
}
