// step.waitForEvent: a matching event that arrives after the wait began ends it with the event;
// other events do not; without one, the wait times out (null) on the test clock.
import { eventType } from "inngest";
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

const reviewRequested = eventType("test/review.requested", { schema: z.object({ paymentId: z.string() }) });
const reviewDecided = eventType("test/review.decided", { schema: z.object({ paymentId: z.string(), approved: z.boolean() }) });
const awaitReview = inngest.createFunction({ id: "await-review", triggers: [reviewRequested] }, async ({ event, step }) => {
  const decision = await step.waitForEvent("decision", { event: reviewDecided, match: "data.paymentId", timeout: "2h" });
  return decision ? { approved: decision.data.approved } : { timedOut: true, paymentId: event.data.paymentId };
});

describe("step.waitForEvent", () => {
  it("ends the wait with the first matching event, ignoring events for other ids", async () => {
    harness = await startInngestHarness({ functions: [awaitReview] });
    const eventId = await sendEvent({ type: reviewRequested, data: { paymentId: "pay-1" }, id: "review-pay-1" });
    const waiting = await harness.waitForRun({ eventId, status: "sleeping" });
    expect(waiting.nextWakeAt?.getTime()).toBe(harness.clock.now().getTime() + 2 * 3600_000);

    await sendEvent({ type: reviewDecided, data: { paymentId: "pay-other", approved: false }, id: "decided-other" });
    await harness.waitUntilIdle();
    expect((await harness.findRun({ eventId }))?.status).toBe("sleeping");

    await sendEvent({ type: reviewDecided, data: { paymentId: "pay-1", approved: true }, id: "decided-pay-1" });
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ approved: true });
    expect(done.steps[0]?.memo).toMatchObject({ data: { name: "test/review.decided", data: { paymentId: "pay-1", approved: true } } });
  });

  it("times out to null when no matching event comes", async () => {
    harness = await startInngestHarness({ functions: [awaitReview] });
    const eventId = await sendEvent({ type: reviewRequested, data: { paymentId: "pay-2" }, id: "review-pay-2" });
    await harness.waitForRun({ eventId, status: "sleeping" });
    harness.advance("1h59m");
    await harness.waitUntilIdle();
    expect((await harness.findRun({ eventId }))?.status).toBe("sleeping");
    harness.advance("1m");
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toEqual({ timedOut: true, paymentId: "pay-2" });
    expect(done.steps[0]?.memo).toBeNull();

    // A decision that comes after the timeout starts nothing and changes nothing.
    await sendEvent({ type: reviewDecided, data: { paymentId: "pay-2", approved: true }, id: "decided-pay-2-late" });
    await harness.waitUntilIdle();
    expect((await harness.findRun({ eventId }))?.output).toEqual({ timedOut: true, paymentId: "pay-2" });
  });
});
