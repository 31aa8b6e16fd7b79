// The SDK's share of the Inngest floor, run inside the background floor's own process (issue 37,
// decision 0235): compiled by the inngest bench into dist/bench/floor-sdk-call.js as the worker is
// compiled (scripts/build/server-scripts.mjs), and loaded by scripts/bench/background-floor.mjs when
// FLOOR_SDK_BUNDLE names it. Each job then makes one direct call of the trivial function, as the
// worker's executor calls its functions, with process.env the plain copy the worker installs.
import { randomBytes } from "node:crypto";
import { installPlainProcessEnv } from "../../../lib/env";
import { directInvoker } from "../../../lib/inngest/direct-comm-handler";
import { callTrivialFunction, trivialFunction } from "./trivial-function";

/** A function that calls the trivial Inngest function once, keyed by the job. */
export function createSdkCall(): (key: string) => Promise<void> {
  installPlainProcessEnv();
  const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
  const { client, noop } = trivialFunction(signingKey);
  const invoke = directInvoker({ client, functions: [noop] });
  return (key) => callTrivialFunction({ invoke }, signingKey, key);
}
