// The executor looks for work when there is some, not on a timer: an event stored in another
// process wakes it through PostgreSQL LISTEN/NOTIFY, an event sent in this process wakes it
// directly, a due sleep wakes it by a timer set to its due time, and an idle executor does nothing.
// Each executor here has its safety poll set to an hour, so nothing below can be found by polling.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eventType } from "inngest";
import { serve } from "inngest/next";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { databaseUrl, db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { systemClock } from "@cps/inngest-embedded";
import { EmbeddedExecutor, type EmbeddedExecutorOptions } from "@cps/inngest-embedded";
import { listenForWork, storeEvent } from "@cps/inngest-embedded";
import { sendEvent } from "@/lib/inngest/send-event";
import { embeddedSigningKey } from "@/lib/inngest/signing-key";
import { serveOnHttp, type MountedRoute } from "@/tests/helpers/serve-on-http";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually, quietFor } from "@/tests/helpers/eventually";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const HOUR = 3_600_000;
const database = useTestDatabase();

const pinged = eventType("test/wake.ping", { schema: z.object({ n: z.number() }) });
const seen = new Map<number, number>();
const recordPing = inngest.createFunction({ id: "wake-record-ping", triggers: [pinged] }, async ({ event, step }) => {
  await step.run("record", () => {
    seen.set(event.data.n, Date.now());
    return event.data.n;
  });
});

// No step, as the follow-up job: one call starts and ends the run.
const plainPinged = eventType("test/wake.plain", { schema: z.object({ n: z.number() }) });
const recordPlainPing = inngest.createFunction({ id: "wake-record-plain-ping", triggers: [plainPinged] }, async ({ event }) => {
  seen.set(event.data.n, Date.now());
  return event.data.n;
});

// No step either, but its call takes a while: calls end while the next events' passes run.
const slowPinged = eventType("test/wake.slow", { schema: z.object({ n: z.number() }) });
const recordSlowPing = inngest.createFunction({ id: "wake-record-slow-ping", triggers: [slowPinged] }, async ({ event }) => {
  await new Promise((resolve) => setTimeout(resolve, 30));
  seen.set(event.data.n, Date.now());
  return event.data.n;
});

const napped = eventType("test/wake.nap", { schema: z.object({ ms: z.number() }) });
const napTimes: number[] = [];
const nap = inngest.createFunction({ id: "wake-nap", triggers: [napped] }, async ({ event, step }) => {
  await step.run("before", () => napTimes.push(Date.now()));
  await step.sleep("nap", `${event.data.ms}ms`);
  await step.run("after", () => napTimes.push(Date.now()));
});

let route: MountedRoute | undefined;
const executors: EmbeddedExecutor[] = [];
afterEach(async () => {
  for (const executor of executors.splice(0)) await executor.stop();
  await route?.close();
  route = undefined;
});

async function startExecutor(options: Partial<EmbeddedExecutorOptions> = {}): Promise<EmbeddedExecutor> {
  route ??= await serveOnHttp({ handlers: serve({ client: inngest, functions: [recordPing, recordPlainPing, recordSlowPing, nap] }) });
  const executor = new EmbeddedExecutor({
    database: db(),
    serveUrl: route.url,
    signingKey: embeddedSigningKey(),
    clock: systemClock,
    pollIntervalMs: HOUR,
    retryJitterMs: 0,
    logger: { info: () => {}, warn: (message) => console.warn(message), error: (message) => console.error(message) },
    ...options,
  });
  executor.start();
  executors.push(executor);
  // Ready once it learned the functions (its first pass).
  await eventually(() => executor.knownFunctions.length > 0, { timeoutMs: 30_000, intervalMs: 10, onTimeout: "return" });
  expect(executor.knownFunctions.length).toBeGreaterThan(0);
  return executor;
}

/** The executor's database with the statements whose text matches `statement` counted. */
function counting(statement: RegExp) {
  const counted = { count: 0 };
  const database = new Proxy(db(), {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== "$queryRaw" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
      return (query: { text?: string; strings?: readonly string[] } | TemplateStringsArray, ...values: unknown[]) => {
        const text = "text" in query && typeof query.text === "string" ? query.text : Array.from(query as ArrayLike<string>).join("?");
        if (statement.test(text)) counted.count++;
        return (value as (...args: unknown[]) => unknown).call(target, query, ...values);
      };
    },
  });
  return { database, counted };
}

/** Claims of due jobs (the statement that leases them). */
function countingClaims() {
  const { database, counted } = counting(/FROM "InngestJob" j\s+WHERE j\."runAt" <=/);
  return { database, claims: counted };
}

/** Fan-outs (the statement that starts runs for new events). */
function countingFanOuts() {
  const { database, counted } = counting(/UPDATE "InngestEvent" SET "fannedOutAt"/);
  return { database, fanOuts: counted };
}

/** Events numbered first.. first + count - 1, sent one at a time `gapMs` apart. */
async function sendOneByOne(
  type: typeof plainPinged | typeof slowPinged,
  { first, count, gapMs, idPrefix }: { first: number; count: number; gapMs: number; idPrefix: string },
): Promise<void> {
  for (let n = first; n < first + count; n++) {
    await sendEvent({ type, data: { n }, id: `${idPrefix}-${n}` });
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

/** Every run of those events ran. */
function expectAllSeen(first: number, count: number): void {
  for (let n = first; n < first + count; n++) expect(seen.has(n), `event ${n}`).toBe(true);
}

describe("waking the embedded executor", { timeout: 120_000 }, () => {
  it("an event stored by another process wakes it through PostgreSQL NOTIFY (safety poll: one hour)", async (context) => {
    // PGlite's socket server does not pass notifications between connections: there the safety
    // poll (and the in-process wake-up of a single-process service) is all there is.
    if (database.current().engine !== "postgres") return context.skip();
    const executor = await startExecutor({
      listen: (wake) => listenForWork({ connectionString: databaseUrl(), onWork: wake }),
    });
    await quietFor(500, "the listener's connection is up");
    const passesBefore = executor.polls;
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [path.join(ROOT, "tests/helpers/store-event-process.ts"), JSON.stringify({ name: "test/wake.ping", data: { n: 1 }, id: "ping-1" })],
      { env: { ...process.env, DATABASE_URL: databaseUrl() }, cwd: ROOT },
    );
    const storedAt = Date.now();
    expect(JSON.parse(stdout.trim().split("\n").pop() as string)).toHaveProperty("id");
    await eventually(() => seen.has(1), { timeoutMs: 10_000, intervalMs: 5, onTimeout: "return" });
    expect(seen.has(1)).toBe(true);
    // Started within moments of the other process's commit (a generous bound for a busy machine; the
    // safety poll would take an hour), through a pass the notification asked for.
    expect((seen.get(1) as number) - storedAt).toBeLessThan(3_000);
    expect(executor.polls).toBeGreaterThan(passesBefore);
  });

  it("an event sent in this process starts at once (safety poll: one hour)", async () => {
    await startExecutor();
    const sentAt = Date.now();
    await sendEvent({ type: pinged, data: { n: 2 }, id: "ping-2" });
    await eventually(() => seen.has(2), { timeoutMs: 10_000, intervalMs: 5, onTimeout: "return" });
    expect(seen.has(2)).toBe(true);
    expect((seen.get(2) as number) - sentAt).toBeLessThan(3_000);
  });

  it("a due sleep wakes it on time, by a timer (safety poll: one hour)", async () => {
    await startExecutor();
    // Whole seconds: the SDK rounds a sleep down to them ("1500ms" is sent as "1s").
    await sendEvent({ type: napped, data: { ms: 2_000 }, id: "nap-1" });
    await eventually(() => napTimes.length === 2, { timeoutMs: 15_000, intervalMs: 5, onTimeout: "return" });
    expect(napTimes).toHaveLength(2);
    const slept = (napTimes[1] as number) - (napTimes[0] as number);
    expect(slept).toBeGreaterThanOrEqual(2_000);
    // On time give or take a busy machine (the whole executor suite in parallel on a loaded 2-core
    // machine adds a second or more); without the timer it would be the safety poll's hour.
    expect(slept).toBeLessThan(6_000);
  });

  it("events arriving one by one start their runs without a claim of due jobs per event, and a sleep among them still ends on time", async () => {
    const { database: counted, claims } = countingClaims();
    // A slot for every run, as in the next test: a pass that runs out of slots on a busy machine owes
    // a claim for what it left, which is not the per-event claim this test is about.
    const count = 40;
    await startExecutor({ database: counted, concurrency: count + 1 });
    napTimes.length = 0;
    await sendEvent({ type: napped, data: { ms: 1_000 }, id: "nap-among-events" });
    await eventually(() => napTimes.length === 1, { timeoutMs: 10_000, intervalMs: 5, onTimeout: "return" });
    const claimsBefore = claims.count;
    const streamStarted = Date.now();
    await sendOneByOne(plainPinged, { first: 100, count, gapMs: 25, idPrefix: "ping-stream" });
    await eventually(() => seen.has(100 + count - 1) && napTimes.length === 2, { timeoutMs: 15_000, intervalMs: 5, onTimeout: "return" });
    expectAllSeen(100, count);
    const streamMs = Date.now() - streamStarted;
    // A claim per event before (40 here); now one at most every 250 ms while events keep coming,
    // plus the claims the sleep's end and the calls that left work ask for. The stream lasts about a
    // second alone and longer on a busy machine (a CI run beside the production cluster read 20
    // claims against a fixed bound of 20, with 4 slots), so the bound follows its duration, as the
    // next test's does, and stays below one claim per event.
    const made = claims.count - claimsBefore;
    console.log(`[wake-on-work] claims while events arrived one by one: ${made} in ${streamMs} ms`);
    expect(made).toBeLessThan(Math.min(count * 0.75, streamMs / 250 + 12));
    const slept = (napTimes[1] as number) - (napTimes[0] as number);
    expect(slept).toBeGreaterThanOrEqual(1_000);
    expect(slept).toBeLessThan(3_000);
  });

  it("calls that end while a pass runs ask for no claim when the pass left nothing for want of a slot", async () => {
    // Before, a call ending during a pass always woke the loop for a claim of due jobs: with calls
    // overlapping the passes of new events, about one claim per event (issue 37: 0.3 claims per
    // capture at 100 a second).
    const { database: counted, claims } = countingClaims();
    // A slot for every call, so that no pass runs out of them however slowly a busy machine runs
    // the calls: then the ends of calls owe no claim at all (a CI run with the default 4 slots saw
    // 25 claims, most of them owed by passes that had run out of slots).
    const count = 80;
    await startExecutor({ database: counted, concurrency: count });
    await quietFor(300, "the passes that follow the first one");
    const claimsBefore = claims.count;
    const streamStarted = Date.now();
    await sendOneByOne(slowPinged, { first: 300, count, gapMs: 5, idPrefix: "slow-stream" });
    await eventually(() => seen.has(300 + count - 1), { timeoutMs: 15_000, intervalMs: 5, onTimeout: "return" });
    expectAllSeen(300, count);
    const streamMs = Date.now() - streamStarted;
    // About one claim every 250 ms while events keep coming (decision 0217) and the one the idle
    // timer owes after the last; the stream lasts longer on a busy machine, so the bound follows it.
    // Measured: 6 and 10 claims in 1.4 and 2.4 s here (10 and 11 in 2.3 and 2.9 s with both cores
    // busy beside the test), against 47 and 49 in 2.4 and 2.6 s with every call ending during a pass
    // asking for one.
    const made = claims.count - claimsBefore;
    console.log(`[wake-on-work] claims during the stream: ${made} in ${streamMs} ms`);
    expect(made).toBeLessThan(streamMs / 250 + 8);
  });

  it("the passes that calls' ends and due sleeps ask for claim jobs without looking for new events", async () => {
    // Before, every pass began with a fan-out statement, found nothing in most of them (issue 37:
    // 3.3 fan-outs per capture whose first notification was refused, at 100 a second).
    const { database: counted, fanOuts } = countingFanOuts();
    const executor = await startExecutor({ database: counted });
    await quietFor(300, "the passes that follow the first one");
    napTimes.length = 0;
    const [fanOutsBefore, passesBefore] = [fanOuts.count, executor.polls];
    const naps = 4;
    for (let n = 0; n < naps; n++) await sendEvent({ type: napped, data: { ms: 1_000 }, id: `nap-claims-only-${n}` });
    await eventually(() => napTimes.length === 2 * naps, { timeoutMs: 15_000, intervalMs: 5, onTimeout: "return" });
    expect(napTimes).toHaveLength(2 * naps);
    const [fanOutsMade, passesMade] = [fanOuts.count - fanOutsBefore, executor.polls - passesBefore];
    console.log(`[wake-on-work] ${naps} runs with a step, a sleep and a step: ${passesMade} passes, ${fanOutsMade} fan-outs`);
    // One fan-out per event at most; each run's calls and its sleep's end made passes of their own.
    expect(fanOutsMade).toBeLessThanOrEqual(naps);
    expect(passesMade).toBeGreaterThan(naps + 2);
  });

  it("an event whose notification was lost is still found within the safety interval while passes only claim", async () => {
    // No listener: an event stored without a wake-up of this process is found by the safety
    // interval's fan-out alone, even while due sleeps keep the executor passing without one.
    const executor = await startExecutor({ pollIntervalMs: 400 });
    await quietFor(300, "the passes that follow the first one");
    napTimes.length = 0;
    await sendEvent({ type: napped, data: { ms: 1_000 }, id: "nap-beside-a-lost-event" });
    await storeEvent(db(), { name: "test/wake.plain", data: { n: 700 }, id: "lost-notification-700" }, new Date());
    const storedAt = Date.now();
    await eventually(() => seen.has(700), { timeoutMs: 10_000, intervalMs: 5, onTimeout: "return" });
    expect(seen.has(700)).toBe(true);
    expect((seen.get(700) as number) - storedAt).toBeLessThan(3_000);
    expect(executor.polls).toBeGreaterThan(1);
  });

  it("an idle executor with the default safety poll makes at most one pass in three seconds", async () => {
    const executor = await startExecutor({ pollIntervalMs: undefined }); // the default
    await quietFor(200, "the passes that follow the first one");
    const before = executor.polls;
    await quietFor(3_000, "an idle executor passes at most once meanwhile");
    expect(executor.polls - before).toBeLessThanOrEqual(1);
  });
});
