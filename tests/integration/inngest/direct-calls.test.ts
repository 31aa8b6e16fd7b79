// Issue 37: the worker's embedded executor calls the functions through the SDK's comm handler
// directly (lib/inngest/direct-comm-handler.ts: no signature, no JSON text, no Request), while
// /api/inngest keeps serve() with signatures for an Inngest server. Both must run the same function
// code to the same result: every function below runs once through each path (serve() over HTTP,
// signed, as the harness calls it; and the direct handler) and the two runs must agree on status,
// output, error, memoized steps and attempts, through step retries, sleeps, parallel steps and
// failures. Only the direct path's handler is called when the executor is given it.
import { eventType, NonRetriableError, type InngestFunction } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { DirectInvoke } from "@cps/inngest-embedded";
import { TestClock } from "@cps/inngest-embedded";
import { inngest } from "@/lib/inngest/client";
import { directInvoker } from "@/lib/inngest/direct-comm-handler";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses, type HarnessRun } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const harnesses = useInngestHarnesses();

const ran = eventType("test/direct-or-served", { schema: z.object({ ref: z.string() }) });
/** Calls of each step per run (by ref), so that both paths see the same first failures. */
const calls = new Map<string, number>();
const count = (key: string) => {
  const n = (calls.get(key) ?? 0) + 1;
  calls.set(key, n);
  return n;
};

const functions: Record<string, InngestFunction.Any> = {
  stepsAndSleep: inngest.createFunction({ id: "paths-steps-and-sleep", triggers: [ran] }, async ({ event, step }) => {
    const first = await step.run("first", () => `first ${event.data.ref.split(":")[0]}`);
    await step.sleep("pause", "2s");
    const second = await step.run("second", () => ({ n: 2, list: [1, "two", null] }));
    return { first, second };
  }),
  stepRetries: inngest.createFunction({ id: "paths-step-retries", retries: 2, triggers: [ran] }, async ({ event, step }) => {
    const value = await step.run("flaky", () => {
      if (count(`${event.data.ref}:flaky`) < 3) throw new Error("not yet");
      return "third time";
    });
    return { value };
  }),
  stepFails: inngest.createFunction({ id: "paths-step-fails", retries: 1, triggers: [ran] }, async ({ step }) => {
    await step.run("doomed", () => {
      throw new Error("always broken");
    });
    return "unreachable";
  }),
  caughtStepFailure: inngest.createFunction({ id: "paths-caught-step-failure", retries: 0, triggers: [ran] }, async ({ step }) => {
    const outcome = await step
      .run("fatal", () => {
        throw new NonRetriableError("card data missing");
      })
      .catch((error: unknown) => `caught: ${error instanceof Error ? error.message : String(error)}`);
    return { outcome };
  }),
  functionRetry: inngest.createFunction({ id: "paths-function-retry", retries: 2, triggers: [ran] }, async ({ event }) => {
    if (count(`${event.data.ref}:body`) < 2) throw new Error("function-level, once");
    return "after a retry";
  }),
  nonRetriable: inngest.createFunction({ id: "paths-non-retriable", retries: 3, triggers: [ran] }, async () => {
    throw new NonRetriableError("refused for good");
  }),
  parallel: inngest.createFunction({ id: "paths-parallel", triggers: [ran] }, async ({ step }) => {
    const [a, b] = await Promise.all([step.run("p-a", () => "a"), step.run("p-b", () => "b")]);
    const after = await step.run("after", () => `${a}${b}`);
    return { after };
  }),
};

/** What must agree between the two paths: no ids, times or stack traces. */
function comparable(run: HarnessRun) {
  const withoutStack = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(withoutStack);
    if (value && typeof value === "object")
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key]) => key !== "stack")
          .map(([key, item]) => [key, withoutStack(item)]),
      );
    return value;
  };
  return {
    status: run.status,
    output: run.output,
    error: withoutStack(run.error),
    attempts: run.attempts,
    // By name: parallel steps are recorded in the order they finish, which neither path fixes.
    steps: run.steps
      .map((step) => ({ name: step.name, memo: withoutStack(step.memo) }))
      .sort((x, y) => String(x.name).localeCompare(String(y.name))),
  };
}

async function runThrough(
  fn: InngestFunction.Any,
  path: "served" | "direct",
  ref: string,
): Promise<{ run: HarnessRun; directCalls: number }> {
  let directCalls = 0;
  const invoker = directInvoker({ client: inngest, functions: [fn] });
  const invoke: DirectInvoke = (call) => {
    directCalls++;
    return invoker(call);
  };
  const harness = await harnesses.start({ functions: [fn], clock: new TestClock(), executor: path === "direct" ? { invoke } : {} });
  const eventId = await sendEvent({ type: ran, data: { ref: `${ref}:${path}` }, id: `${ref}-${path}` });
  await harness.waitForRun({ eventId });
  await harness.runUntilIdle({ maxJumps: 20 });
  const run = await harness.waitForRun({ eventId, status: ["completed", "failed"] });
  await harnesses.stop(harness);
  return { run, directCalls };
}

describe("the direct path and the serve() path run the same function code to the same result", { timeout: 180_000 }, () => {
  for (const [name, fn] of Object.entries(functions)) {
    it(name, async () => {
      const served = await runThrough(fn, "served", name);
      const direct = await runThrough(fn, "direct", name);
      expect(comparable(direct.run)).toEqual(comparable(served.run));
      expect(served.directCalls).toBe(0);
      // Every call of the direct run went to the direct handler (at least one per memoized step).
      expect(direct.directCalls).toBeGreaterThanOrEqual(Math.max(direct.run.steps.length, 1));
    });
  }

  it("the runs themselves: what each function ended with (through the direct path)", async () => {
    const outcomes: Record<string, ReturnType<typeof comparable>> = {};
    for (const [name, fn] of Object.entries(functions)) outcomes[name] = comparable((await runThrough(fn, "direct", `${name}-check`)).run);
    expect(outcomes.stepsAndSleep).toMatchObject({
      status: "completed",
      output: { first: "first stepsAndSleep-check", second: { n: 2, list: [1, "two", null] } },
      steps: [{ name: "first" }, { name: "pause", memo: null }, { name: "second" }],
    });
    expect(outcomes.stepRetries).toMatchObject({
      status: "completed",
      output: { value: "third time" },
      steps: [{ name: "flaky", memo: { data: "third time" } }],
    });
    expect(outcomes.stepFails).toMatchObject({ status: "failed", error: { name: "Error", message: "always broken" } });
    expect(outcomes.caughtStepFailure).toMatchObject({ status: "completed", output: { outcome: "caught: card data missing" } });
    expect(outcomes.functionRetry).toMatchObject({ status: "completed", output: "after a retry", attempts: 1 });
    expect(outcomes.nonRetriable).toMatchObject({ status: "failed", error: { name: "NonRetriableError", message: "refused for good" } });
    expect(outcomes.parallel).toMatchObject({ status: "completed", output: { after: "ab" } });
  });
});
