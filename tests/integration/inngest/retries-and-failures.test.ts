// Step errors are retried with the server's backoff on the test clock, then fail the run;
// NonRetriableError and unsupported ops fail at once.
import { eventType, NonRetriableError } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const harnesses = useInngestHarnesses();

const flakyRequested = eventType("test/flaky", { schema: z.object({ label: z.string() }) });
let flakyCalls = 0;
const alwaysFailing = inngest.createFunction(
  {
    id: "always-failing-step",
    retries: 2,
    triggers: [flakyRequested],
  },
  async ({ step }) => {
    await step.run("flaky", () => {
      flakyCalls++;
      throw new Error(`boom ${flakyCalls}`);
    });
    return "never";
  },
);

describe("a step that keeps failing", () => {
  it("is retried after 15 s and 30 s (retries: 2), then the run fails with its error", async () => {
    const harness = await harnesses.start({ functions: [alwaysFailing] });
    const eventId = await sendEvent({ type: flakyRequested, data: { label: "a" }, id: "flaky-1" });
    const start = harness.clock.now().getTime();

    const afterFirst = await harness.waitForRun({ eventId, status: "running" });
    await harness.waitUntilIdle();
    expect(flakyCalls).toBe(1);
    expect((await harness.findRun({ eventId }))?.nextWakeAt?.getTime()).toBe(start + 15_000);
    expect(afterFirst.steps).toEqual([]);

    harness.advance("14s");
    await harness.waitUntilIdle();
    expect(flakyCalls).toBe(1);
    harness.advance("1s");
    await harness.waitUntilIdle();
    expect(flakyCalls).toBe(2);
    const second = await harness.findRun({ eventId });
    expect(second?.attempts).toBe(2);
    expect(second?.lastError).toBe("Error: boom 2");
    expect(second?.nextWakeAt?.getTime()).toBe(start + 15_000 + 30_000);

    harness.advance("30s");
    const failed = await harness.waitForRun({ eventId, status: "failed" });
    expect(flakyCalls).toBe(3);
    expect(failed.attempts).toBe(3);
    expect(failed.error).toMatchObject({ name: "Error", message: "boom 3" });
    expect(failed.lastError).toBe("Error: boom 3");
    expect(failed.steps).toHaveLength(1);
    expect(failed.steps[0]?.memo).toMatchObject({ error: { message: "boom 3" } });

    await harness.runUntilIdle();
    expect(flakyCalls).toBe(3);
  });
});

const fatalRequested = eventType("test/fatal", { schema: z.object({}) });
let fatalCalls = 0;
const nonRetriable = inngest.createFunction({ id: "non-retriable-step", retries: 4, triggers: [fatalRequested] }, async ({ step }) => {
  await step.run("fatal", () => {
    fatalCalls++;
    throw new NonRetriableError("card data missing");
  });
});

const thrownRequested = eventType("test/thrown", { schema: z.object({}) });
let thrownCalls = 0;
const throwsOutsideSteps = inngest.createFunction({ id: "throws-outside-steps", retries: 1, triggers: [thrownRequested] }, async () => {
  thrownCalls++;
  throw new Error(`function-level ${thrownCalls}`);
});

const askRequested = eventType("test/ask", { schema: z.object({}) });
const asksAModel = inngest.createFunction({ id: "asks-a-model", triggers: [askRequested] }, async ({ step }) => {
  // AI inference through Inngest's gateway: the server makes the call, which this executor does not.
  return step.ai.infer("ask", {
    model: step.ai.models.openai({ model: "gpt-4o-mini", apiKey: "not-used" }),
    body: { messages: [{ role: "user", content: "hello" }] },
  });
});

const nulRequested = eventType("test/nul", { schema: z.object({}) });
let nulCalls = 0;
const returnsNul = inngest.createFunction({ id: "returns-nul", triggers: [nulRequested] }, async ({ step }) => {
  return step.run("nul", () => (nulCalls++, "a\u0000b"));
});

describe("errors that are not retried", () => {
  it("fails a run whose step result the database refuses, instead of re-running the step forever", async () => {
    const harness = await harnesses.start({ functions: [returnsNul] });
    const eventId = await sendEvent({ type: nulRequested, data: {}, id: "nul-1" });
    const failed = await harness.waitForRun({ eventId, status: "failed" });
    expect(failed.error).toMatchObject({ name: "ExecutorError" });
    await harness.runUntilIdle();
    expect(nulCalls).toBe(1);
  });

  it("fails the run at once on a NonRetriableError in a step", async () => {
    const harness = await harnesses.start({ functions: [nonRetriable] });
    const eventId = await sendEvent({ type: fatalRequested, data: {}, id: "fatal-1" });
    const failed = await harness.waitForRun({ eventId, status: "failed" });
    expect(fatalCalls).toBe(1);
    expect(failed.error).toMatchObject({ name: "NonRetriableError", message: "card data missing" });
    expect(failed.attempts).toBe(1);
  });

  it("retries an error thrown outside steps (HTTP 500) and fails after the last attempt", async () => {
    const harness = await harnesses.start({ functions: [throwsOutsideSteps] });
    const eventId = await sendEvent({ type: thrownRequested, data: {}, id: "thrown-1" });
    await harness.waitForRun({ eventId, status: "running" });
    await harness.waitUntilIdle();
    expect(thrownCalls).toBe(1);
    const moved = await harness.runUntilIdle();
    const failed = await harness.waitForRun({ eventId, status: "failed" });
    expect(thrownCalls).toBe(2);
    expect(moved).toBe(15_000);
    expect(failed.error).toMatchObject({ message: "function-level 2" });
  });

  it("fails a run that uses an op the embedded executor does not support, naming it", async () => {
    const harness = await harnesses.start({ functions: [asksAModel] });
    const eventId = await sendEvent({ type: askRequested, data: {}, id: "ask-1" });
    const failed = await harness.waitForRun({ eventId, status: "failed" });
    expect(failed.error).toMatchObject({ name: "UnsupportedOp" });
    expect(failed.lastError).toContain("AIGateway");
  });
});
