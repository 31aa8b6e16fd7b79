// Finished runs and their events are deleted after the retention; unfinished and recent ones stay.
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const harnesses = useInngestHarnesses();

const quick = eventType("test/quick", { schema: z.object({ n: z.number() }) });
const quickFunction = inngest.createFunction({ id: "quick", triggers: [quick] }, async ({ event, step }) =>
  step.run("once", () => event.data.n),
);
const slow = eventType("test/slow", { schema: z.object({}) });
const slowFunction = inngest.createFunction({ id: "slow", triggers: [slow] }, async ({ step }) => {
  await step.sleep("a-long-time", "90d");
  return "woke";
});

describe("retention", () => {
  it("deletes finished runs and their events once they are older than the retention", async () => {
    const harness = await harnesses.start({ functions: [quickFunction, slowFunction], executor: { retentionMs: 30 * 86_400_000 } });
    const old = await sendEvent({ type: quick, data: { n: 1 }, id: "quick-old" });
    const sleeping = await sendEvent({ type: slow, data: {}, id: "slow-1" });
    await harness.waitForRun({ eventId: old, status: "completed" });
    await harness.waitForRun({ eventId: sleeping, status: "sleeping" });

    harness.advance("31d");
    const recent = await sendEvent({ type: quick, data: { n: 2 }, id: "quick-recent" });
    await harness.waitForRun({ eventId: recent, status: "completed" });

    expect(await harness.executor.prune()).toEqual({ runs: 1, events: 1 });
    expect(await harness.findRun({ eventId: old })).toBeNull();
    expect(await db().inngestEvent.findUnique({ where: { id: old } })).toBeNull();
    expect(await db().inngestStep.count({ where: { run: { eventId: old } } })).toBe(0);
    expect((await harness.findRun({ eventId: recent }))?.status).toBe("completed");
    expect((await harness.findRun({ eventId: sleeping }))?.status).toBe("sleeping");
    expect(await harness.executor.prune()).toEqual({ runs: 0, events: 0 });
  });
});
