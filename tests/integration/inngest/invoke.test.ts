// step.invoke: the invoked function runs as its own run; its output (or error) comes back to the
// invoking step; an invoked run that does not end in time fails the step with a timeout.
import { eventType, NonRetriableError } from "inngest";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

let harness: InngestHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const computeFee = inngest.createFunction({ id: "compute-fee", triggers: [{ event: "test/fee.requested" }] }, async ({ event, step }) => {
  const amount = (event.data as { amount: number }).amount;
  if (amount < 0) throw new NonRetriableError("negative amount");
  const fee = await step.run("fee", () => Math.round(amount * 0.015));
  if (amount > 1_000_000) await step.sleep("manual-review", "2h");
  return { fee };
});

const settleRequested = eventType("test/settle", { schema: z.object({ amount: z.number() }) });
const settle = inngest.createFunction({ id: "settle", triggers: [settleRequested] }, async ({ event, step }) => {
  try {
    const { fee } = await step.invoke("compute-fee", { function: computeFee, data: { amount: event.data.amount }, timeout: "1h" });
    return { net: event.data.amount - fee };
  } catch (error) {
    return { failed: (error as Error).message };
  }
});

describe("step.invoke", () => {
  it("runs the invoked function and returns its output to the invoking step", async () => {
    harness = await startInngestHarness({ functions: [settle, computeFee] });
    const eventId = await sendEvent({ type: settleRequested, data: { amount: 10_000 }, id: "settle-1" });
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ net: 9_850 });
    const child = await harness.waitForRun({ functionId: "compute-fee", status: "completed" });
    expect(child.output).toEqual({ fee: 150 });
    expect(done.steps.map((step) => step.memo)).toEqual([{ data: { fee: 150 } }]);
  });

  it("hands the invoked run's failure to the invoking step, which may catch it", async () => {
    harness = await startInngestHarness({ functions: [settle, computeFee] });
    const eventId = await sendEvent({ type: settleRequested, data: { amount: -5 }, id: "settle-2" });
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ failed: "negative amount" });
  });

  it("fails the invoking step when the invoked run does not end within the timeout", async () => {
    harness = await startInngestHarness({ functions: [settle, computeFee] });
    const eventId = await sendEvent({ type: settleRequested, data: { amount: 5_000_000 }, id: "settle-3" });
    await harness.waitForRun({ eventId, status: "sleeping" });
    await harness.waitUntilIdle();
    harness.advance("1h");
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ failed: expect.stringMatching(/timed out/i) });
  });
});
