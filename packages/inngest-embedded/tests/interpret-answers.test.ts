// How the executor reads the SDK's answers (protocol note §2-§6), without HTTP or a database.
import { describe, expect, it } from "vitest";
import type { ClaimedJob } from "../src/claims";
import { TestClock } from "../src/clock";
import type { ExecutorDatabase } from "../src/database";
import { EmbeddedExecutor } from "../src/embedded-executor";
import type { RunForCall } from "../src/run-progress";

const clock = new TestClock(new Date("2026-01-01T00:00:00.000Z"));
const executor = new EmbeddedExecutor({
  database: {} as ExecutorDatabase,
  serveUrl: "http://127.0.0.1:1/api/inngest",
  signingKey: "signkey-test-k",
  clock,
  retryJitterMs: 0,
});
const discovery: ClaimedJob = { id: "j1", runId: "r1", kind: "discovery", hashedId: "step", name: null, attempt: 0, leaseToken: "t" };
const run: RunForCall = {
  id: "r1",
  functionId: "app-f",
  event: { name: "e" },
  status: "running",
  forceStepPlan: false,
  requestVersion: -1,
  maxAttempts: 3,
  steps: [],
};
const at = (ms: number) => new Date(clock.now().getTime() + ms);

describe("the executor's reading of SDK answers", () => {
  it("200 completes the run with the returned value", () => {
    expect(executor.interpret(discovery, run, { kind: "complete", output: { ok: true }, requestVersion: 2 })).toEqual({
      complete: { output: { ok: true } },
      requestVersion: 2,
    });
  });

  it("a StepRun is memoized as {data}", () => {
    const result = executor.interpret(discovery, run, {
      kind: "ops",
      ops: [{ id: "h1", op: "StepRun", name: "first", displayName: "first", data: "A" }],
      retryAfter: null,
    });
    expect(result.memoize).toEqual([{ hashedId: "h1", name: "first", memo: { data: "A" } }]);
    expect(result.forceStepPlan).toBeUndefined();
  });

  it("parallel StepPlanned ops are scheduled now and force step planning from then on", () => {
    const result = executor.interpret(discovery, run, {
      kind: "ops",
      ops: [
        { id: "ha", op: "StepPlanned", name: "p-a", displayName: "p-a" },
        { id: "hb", op: "StepPlanned", name: "p-b", displayName: "p-b" },
      ],
      retryAfter: null,
    });
    expect(result.forceStepPlan).toBe(true);
    expect(result.schedule).toEqual([
      { kind: "step", hashedId: "ha", name: "p-a", runAt: clock.now() },
      { kind: "step", hashedId: "hb", name: "p-b", runAt: clock.now() },
    ]);
  });

  it("a Sleep op's name holds the duration or the date", () => {
    const result = executor.interpret(discovery, run, {
      kind: "ops",
      ops: [{ id: "hs", op: "Sleep", name: "1h30m", displayName: "nap", opts: {} }],
      retryAfter: null,
    });
    expect(result.schedule).toEqual([{ kind: "sleep", hashedId: "hs", name: "nap", runAt: at(5_400_000) }]);
  });

  it("a Sleep counts from when the run's last step ended, not from the discovery call that reported it", () => {
    const sleep = {
      kind: "ops" as const,
      ops: [{ id: "hs", op: "Sleep", name: "3s", displayName: "before-retry", opts: {} }],
      retryAfter: null,
    };
    // The step before the sleep ended 400 ms before this call answered: the sleep wakes 2.6 s from now.
    const fromStep = executor.interpret(discovery, { ...run, sleepsFrom: at(-400) }, sleep);
    expect(fromStep.schedule).toEqual([{ kind: "sleep", hashedId: "hs", name: "before-retry", runAt: at(2_600) }]);
    // A start later than now (another process's clock ahead of ours) never pushes the wake-up later.
    const ahead = executor.interpret(discovery, { ...run, sleepsFrom: at(5_000) }, sleep);
    expect(ahead.schedule).toEqual([{ kind: "sleep", hashedId: "hs", name: "before-retry", runAt: at(3_000) }]);
  });

  it("a StepError is retried with backoff (or Retry-After) until the last attempt, where it is memoized as {error}", () => {
    const error = { name: "Error", message: "boom" };
    const op = { id: "h1", op: "StepError", name: "flaky", error };
    expect(executor.interpret(discovery, run, { kind: "ops", ops: [op], retryAfter: null })).toMatchObject({
      retryAt: at(15_000),
      callError: "Error: boom",
    });
    expect(executor.interpret({ ...discovery, attempt: 1 }, run, { kind: "ops", ops: [op], retryAfter: "30" })).toMatchObject({
      retryAt: at(30_000),
    });
    expect(executor.interpret({ ...discovery, attempt: 2 }, run, { kind: "ops", ops: [op], retryAfter: null }).memoize).toEqual([
      { hashedId: "h1", name: "flaky", memo: { error } },
    ]);
    expect(executor.interpret(discovery, run, { kind: "ops", ops: [{ ...op, op: "StepFailed" }], retryAfter: null }).memoize).toEqual([
      { hashedId: "h1", name: "flaky", memo: { error } },
    ]);
  });

  it("errors: no-retry fails the run, others retry until max attempts", () => {
    const error = { name: "Error", message: "down" };
    expect(executor.interpret(discovery, run, { kind: "error", error, retriable: true, retryAfter: null, status: 500 })).toMatchObject({
      retryAt: at(15_000),
    });
    expect(
      executor.interpret({ ...discovery, attempt: 2 }, run, { kind: "error", error, retriable: true, retryAfter: null }),
    ).toMatchObject({ fail: { error } });
    expect(executor.interpret(discovery, run, { kind: "error", error, retriable: false, retryAfter: null, status: 400 })).toEqual({
      fail: { error },
      callError: "Error: down",
    });
    const reraised = { ...run, steps: [{ hashedId: "h1", memo: { error } }] };
    expect(executor.interpret(discovery, reraised, { kind: "error", error, retriable: false, retryAfter: null, status: 400 })).toEqual({
      fail: { error },
      callError: undefined,
    });
  });

  it("ops the embedded executor cannot honour fail the run with a message naming them", () => {
    const result = executor.interpret(discovery, run, {
      kind: "ops",
      ops: [{ id: "hw", op: "AIGateway", name: "ask", displayName: "ask" }],
      retryAfter: null,
    });
    expect(result.fail?.error.name).toBe("UnsupportedOp");
    expect(result.fail?.error.message).toContain("AIGateway");
  });
});
