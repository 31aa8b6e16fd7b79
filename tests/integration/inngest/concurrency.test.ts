// A function's concurrency limit holds per key across executors; other keys run alongside.
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

const refundRequested = eventType("test/refund", { schema: z.object({ paymentId: z.string(), n: z.number() }) });
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();
let maxOverall = 0;
const completed: number[] = [];
const serializedRefund = inngest.createFunction(
  { id: "serialized-refund", concurrency: { limit: 1, key: "event.data.paymentId" }, triggers: [refundRequested] },
  async ({ event, step }) => {
    const { paymentId, n } = event.data;
    for (const part of ["reserve", "settle"]) {
      await step.run(part, async () => {
        inFlight.set(paymentId, (inFlight.get(paymentId) ?? 0) + 1);
        maxInFlight.set(paymentId, Math.max(maxInFlight.get(paymentId) ?? 0, inFlight.get(paymentId) ?? 0));
        const overall = () => (maxOverall = Math.max(maxOverall, [...inFlight.values()].reduce((a, b) => a + b, 0)));
        overall();
        // A step of another key waits (up to 3 s) for a step of p-same to run beside it: the runs of
        // p-same last long enough that it does unless the limit held the other keys back, however
        // a busy machine happens to order the steps (a CI run once saw no overlap in 60 ms).
        if (paymentId !== "p-same") await eventually(() => overall() > 1, { timeoutMs: 3_000, intervalMs: 5, onTimeout: "return" });
        await new Promise((resolve) => setTimeout(resolve, 60));
        inFlight.set(paymentId, (inFlight.get(paymentId) ?? 1) - 1);
      });
    }
    await step.run("done", () => completed.push(n));
  },
);

describe("concurrency: { limit: 1, key }", () => {
  it("never runs two steps of one key at once, across two executors, while other keys proceed", async () => {
    const harness = await harnesses.start({ functions: [serializedRefund], executor: { concurrency: 4 } });
    harness.startExecutor({ concurrency: 4 });
    const sends = [];
    for (let n = 0; n < 6; n++)
      sends.push(sendEvent({ type: refundRequested, data: { paymentId: n < 4 ? "p-same" : `p-${n}`, n }, id: `refund-${n}` }));
    await Promise.all(sends);
    await harness.runUntilIdle({ timeoutMs: 60_000 });
    expect(completed.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(maxInFlight.get("p-same")).toBe(1);
    expect(maxOverall).toBeGreaterThan(1); // the other keys were not held back
  });
});
