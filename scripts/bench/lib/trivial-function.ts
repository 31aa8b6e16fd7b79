// The Inngest floor's function (issue 37): one trivial Inngest function and the call the embedded
// executor sends for it, so that every measurement of "one SDK call" calls the same thing: in a loop
// of the bench's process (serve-protocol.ts) and once per job inside the background floor
// (floor-sdk-call.ts, scripts/bench/background-floor.mjs with FLOOR_SDK_BUNDLE).
import { callFunction, type DirectInvoke, type ServeHandler } from "@cps/inngest-embedded";
import { Inngest } from "inngest";

export type Transport = { handler?: ServeHandler; invoke?: DirectInvoke };

export function trivialFunction(signingKey: string) {
  const client = new Inngest({ id: "bench-serve-protocol", isDev: false, signingKey, eventKey: "bench" });
  const noop = client.createFunction({ id: "noop", retries: 0, triggers: [{ event: "bench/noop" }] }, async ({ event }) => ({
    ok: true,
    id: event.id,
  }));
  return { client, noop };
}

/** One call of the trivial function through `transport`; throws unless the SDK completed it. */
export async function callTrivialFunction(transport: Transport, signingKey: string, key: string): Promise<void> {
  const event = { id: `evt_${key}`, name: "bench/noop", data: { operationId: `op_${key}` }, ts: Date.now() };
  const answer = await callFunction({
    serveUrl: "http://127.0.0.1:9/api/inngest",
    signingKey,
    functionId: "bench-serve-protocol-noop",
    stepId: "step",
    body: {
      event,
      events: [event],
      steps: {},
      ctx: {
        run_id: `run_${key}`,
        attempt: 0,
        max_attempts: 1,
        disable_immediate_execution: false,
        use_api: false,
        stack: { stack: [], current: 0 },
      },
      version: 2,
    },
    timeoutMs: 10_000,
    ...transport,
  });
  if (answer.kind !== "complete") throw new Error(`the SDK did not complete a trivial function: ${JSON.stringify(answer)}`);
}
