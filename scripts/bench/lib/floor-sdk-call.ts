// The SDK's share of the Inngest floor, run inside the background floor's own process (issue 37,
// decision 0235): compiled by the inngest bench into dist/bench/floor-sdk-call.js as the worker is
// compiled (scripts/build/server-scripts.mjs), and loaded by scripts/bench/background-floor.mjs when
// FLOOR_SDK_BUNDLE names it. Each job then makes one direct call of the trivial function, as the
// worker's executor calls its functions, with process.env the plain copy the worker installs.
import { randomBytes } from "node:crypto";
import { installPlainProcessEnv } from "../../../lib/env";
import { directInvoker } from "../../../lib/inngest/direct-comm-handler";
import { callTrivialFunction, trivialFunction } from "./trivial-function";

/**
 * `call` calls the trivial Inngest function once, keyed by the job; `completed` counts the calls the
 * SDK answered as a completed run (callTrivialFunction throws on any other answer), which the floor
 * prints when it stops (tests/integration/bench/inngest-floor.test.ts).
 */
export function createSdkCall(): { call(key: string): Promise<void>; completed(): number } {
  installPlainProcessEnv();
  const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
  const { client, noop } = trivialFunction(signingKey);
  const invoke = directInvoker({ client, functions: [noop] });
  let completed = 0;
  return {
    async call(key) {
      await callTrivialFunction({ invoke }, signingKey, key);
      completed++;
    },
    completed: () => completed,
  };
}
