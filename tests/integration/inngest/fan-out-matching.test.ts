// The fan-out is one SQL statement (packages/inngest-embedded/src/start-runs.ts, issue 37): it
// matches events to the functions' triggers and computes their concurrency keys in SQL. Its
// answers must be those of the executor's JavaScript rules (triggerMatches and keyOf in
// sync-functions.ts): which functions an event starts, once each, and each run's concurrency key,
// for names, `event.<path> == 'text'` conditions (strings only: a number 5 is not '5'), nested
// and array paths, missing paths, and keys of text, strings, numbers, booleans and missing parts.
import { afterAll, describe, expect, it } from "vitest";
import { ulid } from "ulid";
import { db } from "@/lib/db";
import { storeEvent } from "@cps/inngest-embedded";
import { fanOutEvents } from "@/packages/inngest-embedded/src/start-runs";
import { keyOf, triggerMatches, type FunctionDefinition } from "@/packages/inngest-embedded/src/sync-functions";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const prefix = `fanout-${ulid().toLowerCase()}`;
const functions: FunctionDefinition[] = [
  { id: `${prefix}-by-name`, triggers: [{ event: "test/fanout.a", conditions: [] }], maxAttempts: 1 },
  {
    id: `${prefix}-by-kind`,
    triggers: [{ event: "test/fanout.a", conditions: [{ path: ["data", "kind"], value: "refund" }] }],
    maxAttempts: 4,
  },
  {
    id: `${prefix}-kind-five`,
    triggers: [{ event: "test/fanout.a", conditions: [{ path: ["data", "kind"], value: "5" }] }],
    maxAttempts: 1,
  },
  {
    id: `${prefix}-two-conditions-or-another-event`,
    triggers: [
      {
        event: "test/fanout.a",
        conditions: [
          { path: ["data", "kind"], value: "capture" },
          { path: ["data", "items", "0", "scheme"], value: "visa" },
        ],
      },
      { event: "test/fanout.b", conditions: [] },
      // Matches the same events as the first trigger: still one run per event.
      { event: "test/fanout.a", conditions: [{ path: ["data", "kind"], value: "capture" }] },
    ],
    maxAttempts: 2,
  },
  {
    id: `${prefix}-keyed`,
    triggers: [{ event: "test/fanout.b", conditions: [] }],
    maxAttempts: 1,
    concurrency: {
      limit: 1,
      key: [{ path: ["data", "paymentId"] }, { text: "/" }, { path: ["data", "amount"] }, { text: "/" }, { path: ["data", "live"] }],
    },
  },
  { id: `${prefix}-limited`, triggers: [{ event: "test/fanout.b", conditions: [] }], maxAttempts: 1, concurrency: { limit: 2 } },
];

const events: { name: string; data: Record<string, unknown> }[] = [
  { name: "test/fanout.a", data: {} },
  { name: "test/fanout.a", data: { kind: "refund" } },
  { name: "test/fanout.a", data: { kind: "capture", items: [{ scheme: "visa" }] } },
  { name: "test/fanout.a", data: { kind: "capture", items: [{ scheme: "mastercard" }] } },
  { name: "test/fanout.a", data: { kind: "capture", items: { "0": { scheme: "visa" } } } },
  { name: "test/fanout.a", data: { kind: 5 } },
  { name: "test/fanout.a", data: { kind: "5" } },
  { name: "test/fanout.a", data: { kind: ["refund"] } },
  { name: "test/fanout.c", data: { kind: "refund" } },
  { name: "test/fanout.b", data: { paymentId: "pay_1", amount: 1000, live: true } },
  { name: "test/fanout.b", data: { paymentId: "pay_2", amount: -12, live: false } },
  { name: "test/fanout.b", data: { paymentId: "pay_3" } },
  { name: "test/fanout.b", data: { paymentId: { nested: 1 }, amount: 1, live: true } },
  { name: "test/fanout.b", data: { paymentId: "", amount: 0, live: false } },
];

afterAll(async () => {
  await db().inngestRun.deleteMany({ where: { functionId: { startsWith: prefix } } });
});

describe("the one-statement fan-out", () => {
  it("starts the runs and computes the concurrency keys that the JavaScript rules give", async () => {
    const now = new Date();
    const stored: { id: string; payload: { name: string } & Record<string, unknown> }[] = [];
    for (const event of events) {
      const id = await storeEvent(db(), event, now);
      const row = await db().inngestEvent.findUniqueOrThrow({ where: { id }, select: { payload: true } });
      stored.push({ id, payload: row.payload as { name: string } & Record<string, unknown> });
    }
    const expected = stored.flatMap((event) =>
      functions
        .filter((fn) => fn.triggers.some((trigger) => triggerMatches(trigger, event.payload)))
        .map((fn) => ({
          eventId: event.id,
          functionId: fn.id,
          maxAttempts: fn.maxAttempts,
          concurrencyLimit: fn.concurrency?.limit ?? null,
          concurrencyKey: fn.concurrency ? (fn.concurrency.key ? (keyOf(fn.concurrency.key, event.payload) ?? "") : "") : null,
        })),
    );
    // The JavaScript rules themselves, on a few of the cases (so that the comparison means something).
    const startedBy = (index: number) => expected.filter((run) => run.eventId === stored[index]!.id).map((run) => run.functionId);
    expect(startedBy(5)).toEqual([`${prefix}-by-name`]); // the number 5 is not the text '5'
    expect(startedBy(6)).toEqual([`${prefix}-by-name`, `${prefix}-kind-five`]);
    expect(expected.find((run) => run.eventId === stored[9]!.id && run.functionId === `${prefix}-keyed`)?.concurrencyKey).toBe(
      "pay_1/1000/true",
    );
    expect(expected.find((run) => run.eventId === stored[11]!.id && run.functionId === `${prefix}-keyed`)?.concurrencyKey).toBe("");

    const result = await fanOutEvents({
      database: db(),
      functions,
      now,
      leaseFor: { workerId: "fan-out-test", leaseMs: 60_000, limit: 3 },
    });
    expect(result.picked).toBe(events.length);
    expect(result.started).toBe(expected.length);
    const runs = await db().inngestRun.findMany({
      where: { functionId: { startsWith: prefix } },
      select: { id: true, eventId: true, functionId: true, maxAttempts: true, concurrencyLimit: true, concurrencyKey: true, status: true },
    });
    const sortKey = (run: { eventId: string; functionId: string }) => `${run.eventId} ${run.functionId}`;
    expect(
      runs
        .map(({ eventId, functionId, maxAttempts, concurrencyLimit, concurrencyKey }) => ({
          eventId,
          functionId,
          maxAttempts,
          concurrencyLimit,
          concurrencyKey,
        }))
        .sort((x, y) => sortKey(x).localeCompare(sortKey(y))),
    ).toEqual([...expected].sort((x, y) => sortKey(x).localeCompare(sortKey(y))));
    // Run and job ids are ULIDs, unique; every run has its one discovery job; the first three runs
    // without a concurrency limit, in event order, are leased to the caller.
    expect(runs.every((run) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(run.id))).toBe(true);
    const jobs = await db().inngestJob.findMany({
      where: { runId: { in: runs.map((run) => run.id) } },
      select: { id: true, runId: true, kind: true, leasedBy: true },
    });
    expect(jobs).toHaveLength(runs.length);
    expect(new Set(jobs.map((job) => job.id)).size).toBe(jobs.length);
    expect(jobs.every((job) => job.kind === "discovery" && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(job.id))).toBe(true);
    const unlimitedInOrder = expected.filter((run) => run.concurrencyLimit === null).slice(0, 3);
    const leasedRuns = runs.filter((run) => jobs.find((job) => job.runId === run.id)?.leasedBy === "fan-out-test");
    expect(leasedRuns.map(sortKey).sort()).toEqual(unlimitedInOrder.map(sortKey).sort());
    expect(result.leased.map((work) => work.run.id).sort()).toEqual(leasedRuns.map((run) => run.id).sort());

    // A second pass finds nothing new, and the same events are never fanned out twice.
    const again = await fanOutEvents({ database: db(), functions, now });
    expect(again).toMatchObject({ picked: 0, started: 0, leased: [] });
  });
});
