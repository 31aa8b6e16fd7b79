// cancelOn: an event naming the run's key ends a run in progress; other events do not.
import { eventType } from "inngest";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { inngest } from "@/lib/inngest/client";
import { listRuns } from "@/lib/inngest/list-runs";
import { sendEvent } from "@/lib/inngest/send-event";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

let harness: InngestHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

const sessionOpened = eventType("test/session.opened", { schema: z.object({ sessionId: z.string() }) });
const sessionPaid = eventType("test/session.paid", { schema: z.object({ sessionId: z.string() }) });
const expired: string[] = [];
const expireSession = inngest.createFunction(
  { id: "expire-session", cancelOn: [{ event: sessionPaid, match: "data.sessionId" }], triggers: [sessionOpened] },
  async ({ event, step }) => {
    await step.sleep("window", "15m");
    await step.run("expire", () => expired.push(event.data.sessionId));
  },
);

describe("cancelOn", () => {
  it("cancels the run whose key matches, and leaves the others to finish", async () => {
    harness = await startInngestHarness({ functions: [expireSession] });
    const first = await sendEvent({ type: sessionOpened, data: { sessionId: "s1" }, id: "opened-s1" });
    const second = await sendEvent({ type: sessionOpened, data: { sessionId: "s2" }, id: "opened-s2" });
    await harness.waitForRun({ eventId: first, status: "sleeping" });
    await harness.waitForRun({ eventId: second, status: "sleeping" });

    await sendEvent({ type: sessionPaid, data: { sessionId: "s1" }, id: "paid-s1" });
    const cancelled = await harness.waitForRun({ eventId: first, status: "cancelled" });
    expect(cancelled.nextWakeAt).toBeNull();
    expect(cancelled.lastError).toMatch(/^cancelled by test\/session.paid/);

    await harness.runUntilIdle();
    expect((await harness.findRun({ eventId: second }))?.status).toBe("completed");
    expect(expired).toEqual(["s2"]);
    const listed = await listRuns({ functionId: "expire-session" });
    expect(listed.map((run) => run.status).sort()).toEqual(["cancelled", "completed"]);
  });
});
