// The embedded executor runs real functions through serve() over HTTP on a real database.
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const harnesses = useInngestHarnesses();

const twoStepsRequested = eventType("test/two-steps", { schema: z.object({ name: z.string() }) });
const sideEffects: string[] = [];
const twoStepsWithSleep = inngest.createFunction({ id: "two-steps-with-sleep", triggers: [twoStepsRequested] }, async ({ event, step }) => {
  const first = await step.run("first", () => {
    sideEffects.push(`first:${event.data.name}`);
    return `hello ${event.data.name}`;
  });
  await step.sleep("nap", "24h");
  const second = await step.run("second", () => {
    sideEffects.push(`second:${event.data.name}`);
    return `${first}, again`;
  });
  return { first, second };
});

describe("a two-step function with a sleep", () => {
  it("sleeps on the test clock, then completes with memoized results, each step once", async () => {
    const harness = await harnesses.start({ functions: [twoStepsWithSleep] });
    const eventId = await sendEvent({ type: twoStepsRequested, data: { name: "ada" }, id: "two-steps-1" });

    const sleeping = await harness.waitForRun({ eventId, status: "sleeping" });
    expect(sleeping.steps.map((step) => step.memo)).toEqual([{ data: "hello ada" }]);
    expect(sleeping.nextWakeAt?.getTime()).toBe(harness.clock.now().getTime() + 24 * 3600_000);

    harness.advance("23h59m");
    await harness.waitUntilIdle();
    expect((await harness.findRun({ eventId }))?.status).toBe("sleeping");

    harness.advance("1m");
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ first: "hello ada", second: "hello ada, again" });
    expect(done.steps.map((step) => [step.name, step.memo])).toEqual([
      ["first", { data: "hello ada" }],
      ["nap", null],
      ["second", { data: "hello ada, again" }],
    ]);
    expect(done.attempts).toBe(0);
    expect(sideEffects.filter((entry) => entry.endsWith(":ada"))).toEqual(["first:ada", "second:ada"]);
  });
});

const napRequested = eventType("test/nap", { schema: z.object({}) });
const napTimes: number[] = [];
const shortNap = inngest.createFunction({ id: "short-nap", triggers: [napRequested] }, async ({ step }) => {
  await step.run("before", () => napTimes.push(Date.now()));
  await step.sleep("nap", "1s");
  await step.run("after", () => napTimes.push(Date.now()));
});

describe("an idle executor on the real clock", () => {
  it("wakes a sleep when it falls due, not at the next poll interval", async () => {
    const { systemClock } = await import("@cps/inngest-embedded");
    const { EmbeddedExecutor } = await import("@cps/inngest-embedded");
    const { embeddedSigningKey } = await import("@/lib/inngest/signing-key");
    const { db } = await import("@/lib/db");
    const harness = await harnesses.start({ functions: [shortNap] });
    await harness.executor.stop(); // replaced by one on the real clock with a long poll interval
    const executor = new EmbeddedExecutor({
      database: db(),
      serveUrl: harness.url,
      signingKey: embeddedSigningKey(),
      clock: systemClock,
      pollIntervalMs: 10_000,
    });
    executor.start();
    try {
      const eventId = await sendEvent({ type: napRequested, data: {}, id: "nap-1" });
      await eventually(() => napTimes.length >= 2, { timeoutMs: 30_000, intervalMs: 20, onTimeout: "return" });
      expect(napTimes).toHaveLength(2);
      const slept = (napTimes[1] as number) - (napTimes[0] as number);
      expect(slept).toBeGreaterThanOrEqual(1_000);
      expect(slept).toBeLessThan(6_000); // well under the 10 s poll interval, even on a busy machine
      expect((await harness.findRun({ eventId }))?.status).toMatch(/running|completed/);
    } finally {
      await executor.stop();
    }
  });
});
