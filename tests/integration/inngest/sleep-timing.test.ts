// A sleep counts from when the function reached it: the end of the step before it. The discovery
// call that reports the Sleep op comes after that step's result was recorded, and under load it
// can take long; that time must not be added to the sleep (spec 6.2: a notification retry is
// attempted 3 s after the failed attempt, not 3 s after the executor got round to asking).
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { TestClock } from "@cps/inngest-embedded";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const harnesses = useInngestHarnesses();

const clock = new TestClock();
/** Set by a test: the next discovery call after the first step takes this long (test time). */
const slowDiscovery = { ms: 0 };
const attemptThenRetry = eventType("test/attempt-then-retry", { schema: z.object({ ref: z.string() }) });
const retryAfterThreeSeconds = inngest.createFunction(
  { id: "retry-after-three-seconds", triggers: [attemptThenRetry] },
  async ({ step }) => {
    await step.run("attempt-1", () => "failed");
    if (slowDiscovery.ms > 0) {
      clock.advance(slowDiscovery.ms);
      slowDiscovery.ms = 0;
    }
    await step.sleep("wait-before-attempt-2", "3s");
    return step.run("attempt-2", () => "delivered");
  },
);

describe("step.sleep on the embedded executor", () => {
  it("wakes 3 s after the step before it ended, even when the discovery call reporting the sleep took 2 s", async () => {
    const harness = await harnesses.start({ functions: [retryAfterThreeSeconds], clock });
    slowDiscovery.ms = 2_000;
    const eventId = await sendEvent({ type: attemptThenRetry, data: { ref: "r1" }, id: "attempt-then-retry-1" });
    const sleeping = await harness.waitForRun({ eventId, status: "sleeping" });
    const [attempt] = await db().inngestStep.findMany({ where: { runId: sleeping.id, name: "attempt-1" } });
    expect(attempt).toBeDefined();
    expect(sleeping.nextWakeAt?.getTime()).toBe(attempt!.completedAt.getTime() + 3_000);
    // 2 s went by in the discovery call; 1 s more and the retry is due.
    harness.advance("1s");
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toBe("delivered");
  });
});
