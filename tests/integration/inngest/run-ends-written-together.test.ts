// The ends of runs that their first call completed are written together, one statement for the
// runs that ended within RUN_END_BATCH_MS (decision 0218): the follow-up job is such a run, and its
// end was a statement of its own per capture (issue 37). What must hold: every run still ends
// with its output, a value PostgreSQL refuses fails only its own run, an end not yet written when
// the process dies is not lost (the job keeps its lease, and the run is called again when it
// expires, as after a death just before the end's statement), and a stop writes them first.
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const harnesses = useInngestHarnesses();

const echoed = eventType("test/run-ends.echo", { schema: z.object({ n: z.number(), nul: z.boolean().optional() }) });
const calls = new Map<number, number>();
// No step, as the follow-up job: one call starts and ends the run.
const echo = inngest.createFunction({ id: "run-ends-echo", triggers: [echoed] }, async ({ event }) => {
  calls.set(event.data.n, (calls.get(event.data.n) ?? 0) + 1);
  // A NUL PostgreSQL refuses in the stored output (an event cannot carry one: it is refused when sent).
  return { n: event.data.n, text: event.data.nul ? "a\u0000b" : "ok" };
});

const limited = eventType("test/run-ends.limited", { schema: z.object({ n: z.number() }) });
// A function with a concurrency limit: its runs' ends are written at once, not held with the slot.
const limitedEcho = inngest.createFunction(
  { id: "run-ends-limited", concurrency: { limit: 1 }, triggers: [limited] },
  async ({ event }) => ({
    n: event.data.n,
  }),
);

async function runsOf(functionId: string) {
  return db().inngestRun.findMany({ where: { functionId: `${inngest.id}-${functionId}` }, orderBy: { startedAt: "asc" } });
}

/** The run of the echo event numbered `n` (the runs of earlier tests stay in the database). */
async function echoRun(n: number) {
  return (await runsOf("run-ends-echo")).find((run) => (run.event as { data: { n: number } }).data.n === n);
}

describe("the ends of runs completed by their first call", { timeout: 60_000 }, () => {
  it("are written several to a statement, each run completed with its own output", async () => {
    const harness = await harnesses.start({ functions: [echo] });
    const count = 30;
    await Promise.all(Array.from({ length: count }, (_, n) => sendEvent({ type: echoed, data: { n }, id: `run-ends-${n}` })));
    await harness.waitUntilIdle();
    const runs = await runsOf("run-ends-echo");
    expect(runs).toHaveLength(count); // the first test: no runs of earlier ones
    for (const run of runs) {
      expect(run.status).toBe("completed");
      expect(run.endedAt).not.toBeNull();
      expect((run.output as { text: string }).text).toBe("ok");
    }
    expect(new Set(runs.map((run) => (run.output as { n: number }).n)).size).toBe(count);
    expect(await db().inngestJob.count()).toBe(0);
    expect(harness.executor.runEndBatches.ends).toBe(count);
    expect(harness.executor.runEndBatches.statements).toBeLessThan(count / 2);
  });

  it("fails only the run whose output the database refuses; the others written with it complete", async () => {
    const harness = await harnesses.start({ functions: [echo] });
    await Promise.all([
      sendEvent({ type: echoed, data: { n: 100 }, id: "run-ends-fine-1" }),
      sendEvent({ type: echoed, data: { n: 101, nul: true }, id: "run-ends-nul" }),
      sendEvent({ type: echoed, data: { n: 102 }, id: "run-ends-fine-2" }),
    ]);
    await harness.waitUntilIdle();
    expect((await echoRun(100))?.status).toBe("completed");
    expect((await echoRun(102))?.status).toBe("completed");
    const refused = await echoRun(101);
    expect(refused?.status).toBe("failed");
    expect(refused?.error).toMatchObject({ name: "ExecutorError" });
    expect(calls.get(101)).toBe(1);
    expect(await db().inngestJob.count()).toBe(0);
  });

  it("an end not yet written when the process dies is not lost: the run is called again once its lease expires", async () => {
    // The ends wait a minute here: only a death or a stop can come first.
    const harness = await harnesses.start({ functions: [echo], executor: { leaseMs: 10_000, runEndBatchMs: 60_000 } });
    await sendEvent({ type: echoed, data: { n: 200 }, id: "run-ends-dies" });
    // Dies after the call answered, before the end's statement.
    await eventually(() => calls.get(200) === 1, { timeoutMs: 10_000, intervalMs: 1 });
    await harness.executor.abandon();
    const unfinished = await echoRun(200);
    expect(unfinished?.status).not.toBe("completed");
    expect(await db().inngestJob.count({ where: { runId: unfinished!.id, leasedBy: { not: null } } })).toBe(1);

    harness.startExecutor({ runEndBatchMs: 40 });
    await harness.runUntilIdle();
    expect((await echoRun(200))?.status).toBe("completed");
    expect(calls.get(200)).toBe(2);
  });

  it("a stop writes the ends that wait before it returns", async () => {
    const harness = await harnesses.start({ functions: [echo], executor: { runEndBatchMs: 60_000 } });
    await sendEvent({ type: echoed, data: { n: 300 }, id: "run-ends-stop" });
    await eventually(() => calls.get(300) === 1, { timeoutMs: 10_000, intervalMs: 1 });
    await eventually(() => !harness.executor.busy || (harness.executor as unknown as { pendingEnds: unknown[] }).pendingEnds.length > 0, {
      timeoutMs: 10_000,
      intervalMs: 1,
    });
    await harness.executor.stop();
    expect((await echoRun(300))?.status).toBe("completed");
    expect(await db().inngestJob.count()).toBe(0);
  });

  it("are written at once for a function with a concurrency limit", async () => {
    const harness = await harnesses.start({ functions: [limitedEcho] });
    for (let n = 0; n < 3; n++) await sendEvent({ type: limited, data: { n }, id: `run-ends-limited-${n}` });
    await harness.waitUntilIdle();
    const runs = await runsOf("run-ends-limited");
    expect(runs.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);
    expect(harness.executor.runEndBatches.ends).toBe(0);
  });
});
