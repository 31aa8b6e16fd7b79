// What the embedded executor does not implement fails loudly (issue 29): a function that sets
// cancelOn, idempotency or onFailure is refused when the executor syncs the app, and the sync
// error is reported at once (no start-up grace), while nothing runs; step.waitForEvent and
// step.invoke, which only show when a run reaches them, fail that run naming the op.
import { eventType, type InngestFunction } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually, quietFor } from "@/tests/helpers/eventually";

useTestDatabase();

const harnesses = useInngestHarnesses();

const opened = eventType("test/unsupported.opened", { schema: z.object({ id: z.string() }) });
const paid = eventType("test/unsupported.paid", { schema: z.object({ id: z.string() }) });
const plain = inngest.createFunction({ id: "plain-function", triggers: [opened] }, async ({ step }) => step.run("work", () => "done"));

/** Starts the harness with `functions` and collects what the executor reports. */
async function startReporting(functions: InngestFunction.Any[]) {
  const errors: string[] = [];
  const pollErrors: string[] = [];
  const harness = await harnesses.start({
    functions,
    executor: {
      logger: { info: () => {}, warn: () => {}, error: (message) => errors.push(message) },
      onPoll: (error) => void (error && pollErrors.push(error)),
    },
  });
  return { harness, errors, pollErrors };
}

describe("a function using a feature the embedded executor does not implement", () => {
  it.each([
    [
      "cancelOn",
      inngest.createFunction({ id: "with-cancel-on", cancelOn: [{ event: paid, match: "data.id" }], triggers: [opened] }, async () => "x"),
      /with-cancel-on: cancelOn/,
    ],
    [
      "idempotency",
      inngest.createFunction({ id: "with-idempotency", idempotency: "event.data.id", triggers: [opened] }, async () => "x"),
      /with-idempotency: idempotency/,
    ],
    [
      "onFailure",
      inngest.createFunction({ id: "with-on-failure", triggers: [opened], onFailure: async () => "handled" }, async () => "x"),
      /with-on-failure-failure: onFailure/,
    ],
  ])("%s is refused at sync, reported at once, and nothing runs", async (_name, fn, named) => {
    const { harness, errors, pollErrors } = await startReporting([plain, fn]);
    await eventually(() => pollErrors.length > 0, { timeoutMs: 10_000, intervalMs: 25 });
    expect(pollErrors[0]).toMatch(/refuses these functions/);
    expect(pollErrors[0]).toMatch(named);
    expect(errors.some((line) => named.test(line))).toBe(true);
    expect(harness.executor.knownFunctions).toEqual([]);
    // Not even the supported function runs: a job that silently lost a feature is worse than none.
    await sendEvent({ type: opened, data: { id: "o1" }, id: "unsupported-o1" });
    await quietFor(300, "nothing starts a run meanwhile");
    expect(await db().inngestRun.count()).toBe(0);
  });
});

describe("a step the embedded executor does not implement", () => {
  const waits = inngest.createFunction({ id: "waits-for-event", triggers: [opened] }, async ({ event, step }) =>
    step.waitForEvent("paid", { event: paid, match: "data.id", timeout: "1h" }).then(() => event.data.id),
  );
  const invokes = inngest.createFunction({ id: "invokes-plain", triggers: [opened] }, async ({ step }) =>
    step.invoke("call plain", { function: plain, data: { id: "inner" } }),
  );

  it.each([
    ["step.waitForEvent", waits, "WaitForEvent"],
    ["step.invoke", invokes, "InvokeFunction"],
  ])("%s fails its run at once, naming the op", async (_name, fn, op) => {
    const { harness } = await startReporting([fn]);
    const eventId = await sendEvent({ type: opened, data: { id: `o-${op}` }, id: `unsupported-${op}` });
    const failed = await harness.waitForRun({ eventId, status: "failed" });
    expect(failed.error).toMatchObject({ name: "UnsupportedOp" });
    expect(failed.lastError).toContain(op);
    expect(failed.attempts).toBeLessThanOrEqual(1);
  });
});
