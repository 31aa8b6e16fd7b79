// The Inngest SDK's serve protocol alone (issue 29): the serve handler of `inngest/next` (the one
// lib/jobs/serve-functions.ts makes) with one trivial function, called in this process through
// callFunction of @cps/inngest-embedded exactly as the embedded executor calls it (a signed call
// request as a Request; the answer read and parsed). What one call costs without our functions,
// Prisma or the executor's database work: the SDK's share of every run.
import { randomBytes } from "node:crypto";
import { callFunction } from "@cps/inngest-embedded";
import { Inngest } from "inngest";
import { serve } from "inngest/next";
import type { NextRequest } from "next/server";

export interface ServeProtocolCost {
  calls: number;
  callsPerSecond: number;
  cpuMsPerCall: number;
}

export async function measureServeProtocol(calls: number): Promise<ServeProtocolCost> {
  const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
  const client = new Inngest({ id: "bench-serve-protocol", isDev: false, signingKey, eventKey: "bench" });
  const noop = client.createFunction({ id: "noop", retries: 0, triggers: [{ event: "bench/noop" }] }, async ({ event }) => ({
    ok: true,
    id: event.id,
  }));
  const handlers = serve({ client, functions: [noop], serveOrigin: "http://127.0.0.1:9", servePath: "/api/inngest" });
  const handler = (request: Request) => handlers.POST(request as NextRequest, undefined);
  const call = (index: number) => {
    const event = { id: `evt_${index}`, name: "bench/noop", data: { operationId: `op_${index}` }, ts: Date.now() };
    return callFunction({
      serveUrl: "http://127.0.0.1:9/api/inngest",
      signingKey,
      functionId: "bench-serve-protocol-noop",
      stepId: "step",
      body: {
        event,
        events: [event],
        steps: {},
        ctx: {
          run_id: `run_${index}`,
          attempt: 0,
          max_attempts: 1,
          disable_immediate_execution: false,
          use_api: false,
          stack: { stack: [], current: 0 },
        },
        version: 2,
      },
      timeoutMs: 10_000,
      handler,
    });
  };
  const first = await call(0);
  if (first.kind !== "complete") throw new Error(`the serve handler did not complete a trivial function: ${JSON.stringify(first)}`);
  for (let index = 1; index <= 300; index++) await call(index); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < calls; index++) await call(1000 + index);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    calls,
    callsPerSecond: Math.round(calls / seconds),
    cpuMsPerCall: Number(((used.user + used.system) / 1000 / calls).toFixed(3)),
  };
}
