// The embedded executor of a service process hands its calls to the serve handler in the same
// process (lib/jobs/serve-functions.ts) instead of POSTing them to its own /api/inngest over
// loopback HTTP. The handler gets the same signed request an Inngest server sends, so steps,
// sleeps, memoized results and errors come out exactly as over HTTP; a call that outlasts the
// timeout counts as unanswered and is retried, as an HTTP call that timed out is.
import { eventType } from "inngest";
import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inngest } from "@/lib/inngest/client";
import { callFunction, type ServeHandler } from "@cps/inngest-embedded";
import { TestClock } from "@cps/inngest-embedded";
import { embeddedSigningKey } from "@/lib/inngest/signing-key";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const harnesses = useInngestHarnesses();

const clock = new TestClock();
const stepsThenSleep = eventType("test/in-process-steps", { schema: z.object({ ref: z.string() }) });
const stepsAndSleep = inngest.createFunction({ id: "in-process-steps-and-sleep", triggers: [stepsThenSleep] }, async ({ event, step }) => {
  const first = await step.run("first", () => `first ${event.data.ref}`);
  await step.sleep("pause", "2s");
  const second = await step.run("second", () => "second");
  return { first, second };
});

const flaky = eventType("test/in-process-flaky", { schema: z.object({ ref: z.string() }) });
const flakyOnce = { failed: false };
const failsOnceThenReturns = inngest.createFunction({ id: "in-process-fails-once", retries: 2, triggers: [flaky] }, async () => {
  if (!flakyOnce.failed) {
    flakyOnce.failed = true;
    throw new Error("the first attempt fails");
  }
  return "second attempt";
});

/** The serve handler of `functions` as the launcher passes it, counting the calls it answers. */
function inProcessHandler(functions: Parameters<typeof serve>[0]["functions"]) {
  const handlers = serve({ client: inngest, functions });
  const seen: { fnId: string | null; signed: boolean }[] = [];
  const handler: ServeHandler = (request) => {
    const url = new URL(request.url);
    seen.push({ fnId: url.searchParams.get("fnId"), signed: Boolean(request.headers.get("x-inngest-signature")) });
    return handlers.POST(request as NextRequest, undefined);
  };
  return { handler, seen };
}

describe("in-process calls of the embedded executor", () => {
  it("runs steps and a sleep through the in-process handler, with signed requests, to the same result as over HTTP", async () => {
    const { handler, seen } = inProcessHandler([stepsAndSleep]);
    const harness = await harnesses.start({ functions: [stepsAndSleep], clock, executor: { handler } });
    const eventId = await sendEvent({ type: stepsThenSleep, data: { ref: "r1" }, id: "in-process-1" });
    await harness.waitForRun({ eventId, status: "sleeping" });
    harness.advance("2s");
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ first: "first r1", second: "second" });
    expect(done.steps.map((step) => step.name)).toEqual(["first", "pause", "second"]);
    // Every call went to the handler, signed; none went to the HTTP endpoint's POST.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((call) => call.signed && call.fnId === `${inngest.id}-in-process-steps-and-sleep`)).toBe(true);
  });

  it("retries a function whose first in-process attempt threw, as over HTTP", async () => {
    const { handler } = inProcessHandler([failsOnceThenReturns]);
    const harness = await harnesses.start({ functions: [failsOnceThenReturns], clock, executor: { handler } });
    const eventId = await sendEvent({ type: flaky, data: { ref: "r2" }, id: "in-process-2" });
    await harness.waitForRun({ eventId, status: "running" });
    // The retry is due after its backoff (test clock): move past it.
    await eventually(async () => (await harness.waitForRun({ eventId })).status === "completed", {
      timeoutMs: 40 * 25 + 30_000,
      intervalMs: 25,
      between: () => harness.advance("1m"),
      onTimeout: "return",
    });
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toBe("second attempt");
    expect(done.attempts).toBeGreaterThanOrEqual(1);
  });

  it("counts a call the handler does not answer within the timeout as unanswered and retriable", async () => {
    const never: ServeHandler = () => new Promise<Response>(() => {});
    const started = Date.now();
    const outcome = await callFunction({
      serveUrl: "http://127.0.0.1:1/api/inngest",
      signingKey: embeddedSigningKey(),
      functionId: "card-payment-service-any",
      stepId: "step",
      body: {
        event: { name: "e" },
        events: [{ name: "e" }],
        steps: {},
        ctx: {
          run_id: "r",
          attempt: 0,
          max_attempts: 1,
          disable_immediate_execution: true,
          use_api: false,
          stack: { stack: [], current: 0 },
        },
        version: 2,
      },
      timeoutMs: 100,
      handler: never,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toMatchObject({ kind: "error", retriable: true, error: { name: "CallFailed" } });
    expect(outcome.kind === "error" && outcome.error.message).toMatch(/timeout/i);
  });
});
