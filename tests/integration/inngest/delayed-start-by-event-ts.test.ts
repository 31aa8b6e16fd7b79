// An event whose ts lies ahead starts its runs then (Inngest: "If the ts time is in the future,
// function runs will be scheduled to start at the given time. This has the same effect as sleeping
// at the start"; decision 0222). The notification's second attempt is started this way, so its run
// spends no call on a sleep. Only a ts more than FUTURE_TS_MARGIN_MS ahead of the database's clock
// delays it: the executor's own clock (a test clock here, another machine's in production) never
// makes an ordinary event wait.
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FUTURE_TS_MARGIN_MS, TestClock } from "@cps/inngest-embedded";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const harnesses = useInngestHarnesses();

const clock = new TestClock();
const started = eventType("test/delayed-start", { schema: z.object({ ref: z.string() }) });
const calls: { ref: string; at: number }[] = [];
/** The clock of the executor that calls the function (the third test runs one whose clock is behind). */
let callClock: TestClock = clock;
const noteCall = inngest.createFunction({ id: "delayed-start-note", triggers: [started] }, async ({ event }) => {
  calls.push({ ref: event.data.ref, at: callClock.now().getTime() });
  return event.data.ref;
});

const callsOf = (ref: string) => calls.filter((call) => call.ref === ref);

describe("an event's ts ahead of the database's clock", () => {
  it("starts its run when ts falls due on the executor's clock, not before, with one call", async () => {
    const harness = await harnesses.start({ functions: [noteCall], clock });
    const ts = Date.now() + 3_000;
    const eventId = await sendEvent({ type: started, data: { ref: "later" }, id: "delayed-start-later", ts });
    const queued = await harness.waitForRun({ eventId, status: "queued" });
    expect(queued.nextWakeAt?.getTime()).toBe(ts);
    const [job] = await db().inngestJob.findMany({ where: { runId: queued.id } });
    expect(job?.runAt.getTime()).toBe(ts);
    expect(job?.leaseToken).toBeNull();
    // Passes before it is due call nothing.
    clock.advanceTo(new Date(ts - 1));
    harness.advance(0);
    await harness.waitUntilIdle();
    expect(callsOf("later")).toEqual([]);
    harness.advance(1);
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toBe("later");
    expect(callsOf("later")).toEqual([{ ref: "later", at: ts }]);
  });

  it("starts at once when ts is within the margin, or in the past", async () => {
    const harness = await harnesses.start({ functions: [noteCall], clock });
    const now = clock.now().getTime();
    const near = await sendEvent({ type: started, data: { ref: "near" }, id: "delayed-start-near", ts: Date.now() + FUTURE_TS_MARGIN_MS - 100 });
    const past = await sendEvent({ type: started, data: { ref: "past" }, id: "delayed-start-past", ts: Date.now() - 60_000 });
    for (const eventId of [near, past]) expect((await harness.waitForRun({ eventId, status: "completed" })).status).toBe("completed");
    expect(callsOf("near")).toEqual([{ ref: "near", at: now }]);
    expect(callsOf("past")).toEqual([{ ref: "past", at: now }]);
  });

  it("is not judged by the executor's clock: an event stamped now starts at once on an executor whose clock is behind", async () => {
    // As an executor on a machine whose clock runs 10 s behind the one that stored the event.
    const behind = new TestClock(new Date(Date.now() - 10_000));
    callClock = behind;
    const harness = await harnesses.start({ functions: [noteCall], clock: behind });
    const eventId = await sendEvent({ type: started, data: { ref: "stamped-now" }, id: "delayed-start-stamped-now" });
    expect((await harness.waitForRun({ eventId, status: "completed", timeoutMs: 5_000 })).status).toBe("completed");
    expect(callsOf("stamped-now")).toEqual([{ ref: "stamped-now", at: behind.now().getTime() }]);
  });
});
