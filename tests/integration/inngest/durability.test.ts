// Runs survive a restart and a crash mid-call; two executors on one database share the work and
// run every step once; SKIP LOCKED hands each due job to one claimer only.
import { eventType } from "inngest";
import { ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createPrismaClient, db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { claimDueJobs, claimDueJobsAndNextDue } from "@/packages/inngest-embedded/src/claims";
import { loadRunForCall } from "@/packages/inngest-embedded/src/run-progress";
import { sendEvent } from "@/lib/inngest/send-event";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually, quietFor } from "@/tests/helpers/eventually";

const database = useTestDatabase();

const { start, stop } = useInngestHarnesses();

const reminderRequested = eventType("test/reminder", { schema: z.object({ who: z.string() }) });
const reminders: string[] = [];
const remindTomorrow = inngest.createFunction({ id: "remind-tomorrow", triggers: [reminderRequested] }, async ({ event, step }) => {
  await step.run("note", () => reminders.push(`noted ${event.data.who}`));
  await step.sleep("until-tomorrow", "24h");
  await step.run("remind", () => reminders.push(`reminded ${event.data.who}`));
  return "reminded";
});

describe("a restart of the service", () => {
  it("wakes a run that was sleeping when the executor stopped, at its time and not before", async () => {
    const before = await start({ functions: [remindTomorrow] });
    const eventId = await sendEvent({ type: reminderRequested, data: { who: "grace" }, id: "reminder-1" });
    const sleeping = await before.waitForRun({ eventId, status: "sleeping" });
    const wakeAt = sleeping.nextWakeAt?.getTime();
    expect(wakeAt).toBe(before.clock.now().getTime() + 24 * 3600_000);
    await stop(before);

    // A new process: new serve endpoint, new executor, same database, time has moved on.
    const after = await start({ functions: [remindTomorrow], clock: before.clock });
    after.advance("12h");
    await after.waitUntilIdle();
    expect((await after.findRun({ eventId }))?.status).toBe("sleeping");
    after.advance("12h");
    const done = await after.waitForRun({ eventId, status: "completed" });
    expect(done.output).toBe("reminded");
    expect(reminders).toEqual(["noted grace", "reminded grace"]);
  });
});

const chargeRequested = eventType("test/charge", { schema: z.object({ ref: z.string() }) });
const calls = { prepare: 0, charge: 0 };
let releaseFirstCharge: (() => void) | undefined;
const chargeFunction = inngest.createFunction({ id: "slow-charge", triggers: [chargeRequested] }, async ({ step }) => {
  await step.run("prepare", () => ++calls.prepare);
  return step.run("charge", async () => {
    calls.charge++;
    if (calls.charge === 1) await new Promise<void>((resolve) => (releaseFirstCharge = resolve));
    return `charged (call ${calls.charge})`;
  });
});

describe("a crash in the middle of a call", () => {
  it("keeps the job leased until the lease expires, then another executor resumes the run from its memoized steps", async () => {
    const crashing = await start({ functions: [chargeFunction], executor: { leaseMs: 60_000 } });
    const eventId = await sendEvent({ type: chargeRequested, data: { ref: "r1" }, id: "charge-1" });
    await eventually(() => calls.charge > 0, { timeoutMs: 10_000, intervalMs: 20, onTimeout: "return" });
    expect(calls.charge).toBe(1);

    await crashing.executor.abandon(); // the process dies while "charge" is running
    releaseFirstCharge?.();
    const survivor = crashing.startExecutor({ leaseMs: 60_000 });

    crashing.advance("59s");
    await quietFor(300, "the lease still holds: nobody runs the step a second time");
    expect(calls.charge).toBe(1);
    expect((await crashing.findRun({ eventId }))?.status).toBe("running");

    crashing.advance("1s");
    const done = await crashing.waitForRun({ eventId, status: "completed" });
    expect(done.output).toBe("charged (call 2)");
    expect(calls).toEqual({ prepare: 1, charge: 2 });
    expect(done.steps.map((step) => step.name)).toEqual(["prepare", "charge"]);
    expect(survivor.callsMade).toBeGreaterThan(0);
  });
});

const captureRequested = eventType("test/capture", { schema: z.object({ ref: z.string() }) });
const captureCalls = { prepare: 0, capture: 0 };
let releaseFirstCapture: (() => void) | undefined;
const captureFunction = inngest.createFunction({ id: "slow-capture", triggers: [captureRequested] }, async ({ step }) => {
  await step.run("prepare", () => ++captureCalls.prepare);
  return step.run("capture", async () => {
    captureCalls.capture++;
    if (captureCalls.capture === 1) await new Promise<void>((resolve) => (releaseFirstCapture = resolve));
    return `captured (call ${captureCalls.capture})`;
  });
});

describe("a restart after a crash", () => {
  it("lets the successor under the same worker id take back the dead process's jobs at once", async () => {
    const harness = await start({ functions: [captureFunction], executor: { workerId: "service@host:3000", leaseMs: 300_000 } });
    const eventId = await sendEvent({ type: captureRequested, data: { ref: "c1" }, id: "capture-1" });
    await eventually(() => captureCalls.capture > 0, { timeoutMs: 20_000, intervalMs: 20, onTimeout: "return" });
    await harness.executor.abandon();
    releaseFirstCapture?.();

    harness.startExecutor({ workerId: "service@host:3000", reclaimOwnLeasesOnStart: true });
    const done = await harness.waitForRun({ eventId, status: "completed" }); // no clock movement needed
    expect(done.output).toBe("captured (call 2)");
    expect(captureCalls).toEqual({ prepare: 1, capture: 2 });
  });
});

const batchRequested = eventType("test/batch", { schema: z.object({ n: z.number() }) });
const executions = new Map<string, number>();
function count(key: string): void {
  executions.set(key, (executions.get(key) ?? 0) + 1);
}
const busyFunction = inngest.createFunction({ id: "busy", triggers: [batchRequested] }, async ({ event, step }) => {
  const n = event.data.n;
  const a = await step.run("a", () => (count(`${n}:a`), n));
  const [left, right] = await Promise.all([
    step.run("left", () => (count(`${n}:left`), a + 1)),
    step.run("right", () => (count(`${n}:right`), a + 2)),
  ]);
  await step.sleep("pause", "1m");
  return step.run("sum", () => (count(`${n}:sum`), left + right));
});

describe("two executors on one database", () => {
  it("run every step exactly once while sharing the work", async () => {
    const harness = await start({ functions: [busyFunction], executor: { concurrency: 2 } });
    const second = harness.startExecutor({ concurrency: 2 });
    const runs = 8;
    for (let n = 0; n < runs; n++) await sendEvent({ type: batchRequested, data: { n }, id: `batch-${n}` });
    await harness.runUntilIdle();
    for (let n = 0; n < runs; n++) {
      const run = await harness.waitForRun({
        eventId: (await db().inngestEvent.findUniqueOrThrow({ where: { idempotencyKey: `batch-${n}` } })).id,
        status: "completed",
      });
      expect(run.output).toBe(2 * n + 3);
      expect(run.steps.map((step) => step.name).sort()).toEqual(["a", "left", "pause", "right", "sum"]);
    }
    expect(executions.size).toBe(runs * 4);
    expect([...executions.values()].every((times) => times === 1)).toBe(true);
    expect(harness.executor.callsMade).toBeGreaterThan(0);
    expect(second.callsMade).toBeGreaterThan(0);
  });

  it("never hand one due job to two claimers (FOR UPDATE SKIP LOCKED)", async () => {
    const runId = ulid();
    await db().inngestRun.create({
      data: { id: runId, functionId: "card-payment-service-none", eventId: ulid(), event: { name: "x" }, maxAttempts: 1 },
    });
    const now = new Date();
    await db().inngestJob.createMany({
      data: Array.from({ length: 20 }, (_, index) => ({ id: ulid(), runId, kind: "step" as const, hashedId: `h${index}`, runAt: now })),
    });
    const clients = [createPrismaClient(database.current().url, 2), createPrismaClient(database.current().url, 2)];
    try {
      const claims = await Promise.all(
        clients.flatMap((client, index) =>
          [0, 1, 2].map(() => claimDueJobs({ database: client, workerId: `w${index}`, now, leaseMs: 60_000, limit: 4 })),
        ),
      );
      const ids = claims.flat().map((job) => job.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
      const again = await claimDueJobs({ database: clients[0]!, workerId: "w0", now, leaseMs: 60_000, limit: 20 });
      expect(again).toEqual([]);
      const later = await claimDueJobs({
        database: clients[1]!,
        workerId: "w1",
        now: new Date(now.getTime() + 60_000),
        leaseMs: 60_000,
        limit: 50,
      });
      expect(later).toHaveLength(20); // expired leases are reclaimed
    } finally {
      await Promise.all(clients.map((client) => client.$disconnect()));
      await db().inngestRun.delete({ where: { id: runId } });
    }
  });
});

describe("a claimed job", () => {
  it("comes with its run and memoized steps as the run's own read answers them, so its call reads nothing more", async () => {
    const runId = ulid();
    const startedAt = new Date("2026-11-29T10:00:00.123Z");
    await db().inngestRun.create({
      data: { id: runId, functionId: "card-payment-service-none", eventId: ulid(), event: { name: "x", data: { ref: "r" } }, maxAttempts: 3, status: "running", startedAt },
    });
    await db().inngestStep.createMany({
      data: [
        { runId, hashedId: "b", name: "second", result: { memo: { data: 2 } }, position: 1, completedAt: new Date("2026-11-29T10:00:02.456Z") },
        { runId, hashedId: "a", name: "first", result: { memo: { data: "one" } }, position: 0, completedAt: new Date("2026-11-29T10:00:01.000Z") },
      ],
    });
    const jobId = ulid();
    const now = new Date();
    await db().inngestJob.create({ data: { id: jobId, runId, kind: "discovery", hashedId: "", runAt: now } });
    try {
      const claim = await claimDueJobsAndNextDue({ database: db(), workerId: "w-run", now, leaseMs: 60_000, limit: 10 });
      expect(claim.jobs.map((job) => job.id)).toContain(jobId);
      const withClaim = claim.runs.get(jobId);
      expect(withClaim).toEqual(await loadRunForCall(db(), runId));
      expect(withClaim).toMatchObject({
        id: runId,
        status: "running",
        maxAttempts: 3,
        event: { name: "x", data: { ref: "r" } },
        steps: [
          { hashedId: "a", memo: { data: "one" } },
          { hashedId: "b", memo: { data: 2 } },
        ],
      });
      // A sleep found by the call counts from the latest step's end, to the millisecond.
      expect(withClaim?.sleepsFrom?.toISOString()).toBe("2026-11-29T10:00:02.456Z");
    } finally {
      await db().inngestRun.delete({ where: { id: runId } });
    }
  });
});

const voidRequested = eventType("test/void", { schema: z.object({ ref: z.string() }) });
let voidCalls = 0;
let releaseFirstVoid: (() => void) | undefined;
const voidFunction = inngest.createFunction({ id: "slow-void", triggers: [voidRequested] }, async ({ step }) =>
  step.run("void", async () => {
    voidCalls++;
    if (voidCalls === 1) await new Promise<void>((resolve) => (releaseFirstVoid = resolve));
    return voidCalls;
  }),
);

describe("the harness after a crash", () => {
  it("runUntilIdle moves the clock past the dead executor's lease and finishes the run", async () => {
    const harness = await start({ functions: [voidFunction], executor: { leaseMs: 120_000 } });
    const eventId = await sendEvent({ type: voidRequested, data: { ref: "v1" }, id: "void-1" });
    await eventually(() => voidCalls > 0, { timeoutMs: 20_000, intervalMs: 20, onTimeout: "return" });
    await harness.executor.abandon();
    releaseFirstVoid?.();
    harness.startExecutor({ leaseMs: 120_000 });
    const moved = await harness.runUntilIdle();
    expect(moved).toBeGreaterThanOrEqual(120_000);
    expect((await harness.findRun({ eventId }))?.output).toBe(2);
  });
});
