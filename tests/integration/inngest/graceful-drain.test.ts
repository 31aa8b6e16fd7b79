// Graceful shutdown of the embedded executor (SIGTERM, lib/runtime/graceful-shutdown.ts): it claims
// nothing new, lets a call in flight finish when it can within the bound, and otherwise gives the
// job back so that an executor in another process runs it at once, not after the 5-minute lease.
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually, quietFor } from "@/tests/helpers/eventually";

useTestDatabase();

const { start } = useInngestHarnesses();

const settleRequested = eventType("test/settle", { schema: z.object({ ref: z.string() }) });
const settleCalls = { settle: 0 };
let releaseSettle: (() => void) | undefined;
const settleFunction = inngest.createFunction({ id: "drain-settle", triggers: [settleRequested] }, async ({ step }) =>
  step.run("settle", async () => {
    settleCalls.settle++;
    if (settleCalls.settle === 1) await new Promise<void>((resolve) => (releaseSettle = resolve));
    return `settled (call ${settleCalls.settle})`;
  }),
);

const quickRequested = eventType("test/quick", { schema: z.object({ ref: z.string() }) });
const quickCalls: string[] = [];
let releaseQuick: (() => void) | undefined;
const quickFunction = inngest.createFunction({ id: "drain-quick", triggers: [quickRequested] }, async ({ event, step }) =>
  step.run("quick", async () => {
    quickCalls.push(event.data.ref);
    if (event.data.ref === "q1") await new Promise<void>((resolve) => (releaseQuick = resolve));
    return `done ${event.data.ref}`;
  }),
);

describe("EmbeddedExecutor.drain (SIGTERM)", () => {
  it("gives back a call still running at the bound; another executor runs it at once, far inside the lease", async () => {
    const harness = await start({ functions: [settleFunction], executor: { leaseMs: 300_000, workerId: "service@a:3000" } });
    const eventId = await sendEvent({ type: settleRequested, data: { ref: "s1" }, id: "settle-1" });
    await eventually(() => settleCalls.settle === 1, { timeoutMs: 20_000, intervalMs: 20 });

    const drained = await harness.executor.drain(300);
    expect(drained).toEqual({ finished: false, released: 1 });
    const job = await db().inngestJob.findFirstOrThrow({ where: { run: { eventId } } });
    expect(job.leasedBy).toBeNull();
    expect(job.leaseExpiresAt).toBeNull();
    releaseSettle?.(); // the abandoned call ends; its result is dropped

    // A successor in another process (another worker id), with the test clock standing still:
    // only a released lease lets it run the job now.
    harness.startExecutor({ leaseMs: 300_000, workerId: "service@b:3000" });
    const done = await harness.waitForRun({ eventId, status: "completed" });
    expect(done.output).toBe("settled (call 2)");
  });

  it("lets a call in flight finish and record its result within the bound, then claims nothing new", async () => {
    const harness = await start({ functions: [quickFunction], executor: { leaseMs: 300_000, workerId: "service@c:3000" } });
    const first = await sendEvent({ type: quickRequested, data: { ref: "q1" }, id: "quick-1" });
    await eventually(() => quickCalls.length === 1, { timeoutMs: 20_000, intervalMs: 20 });

    const draining = harness.executor.drain(10_000);
    const second = await sendEvent({ type: quickRequested, data: { ref: "q2" }, id: "quick-2" });
    await quietFor(200, "the draining executor has the time to claim the new event, were it to");
    releaseQuick?.();
    expect(await draining).toEqual({ finished: true, released: 0 });
    // The step's result is recorded; the run's next call is handed over, not leased.
    const afterDrain = await harness.findRun({ eventId: first });
    expect(afterDrain?.steps.map((step) => step.name)).toEqual(["quick"]);
    expect(await db().inngestJob.count({ where: { run: { eventId: first }, leasedBy: { not: null } } })).toBe(0);
    // The drained executor left the new event alone: nobody has run it yet, and nobody holds it.
    // (A pass whose fan-out statement was already at the database when drain() began may have
    // started its run: then the job was handed back at once, as the leases of the first test are.)
    await quietFor(300, "nobody runs the new event meanwhile");
    expect(quickCalls).toEqual(["q1"]);
    const secondRun = await harness.findRun({ eventId: second });
    if (secondRun) {
      expect(secondRun.steps).toEqual([]);
      expect(await db().inngestJob.count({ where: { runId: secondRun.id, leasedBy: { not: null } } })).toBe(0);
    }

    harness.startExecutor({ workerId: "service@d:3000" });
    expect((await harness.waitForRun({ eventId: first, status: "completed" })).output).toBe("done q1");
    expect((await harness.waitForRun({ eventId: second, status: "completed" })).output).toBe("done q2");
    expect(quickCalls).toEqual(["q1", "q2"]); // q1's step ran once
  });
});
