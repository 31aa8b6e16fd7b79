// The suites' one wait helper (tests/helpers/eventually.ts): it returns the probe's first answer,
// fails in time with what it waited for, and lets a probe's own error through at once.
import { describe, expect, it } from "vitest";
import { EventuallyTimeout, eventually, quietFor } from "@/tests/helpers/eventually";

describe("eventually()", () => {
  it("asks until the probe answers and resolves to that answer (0 and empty strings are answers)", async () => {
    let calls = 0;
    expect(await eventually(() => (++calls >= 3 ? { row: calls } : undefined), { intervalMs: 1 })).toEqual({ row: 3 });
    expect(calls).toBe(3);
    expect(await eventually(() => 0)).toBe(0);
    expect(await eventually(async () => "")).toBe("");
  });

  it("treats undefined, null and false as not yet", async () => {
    const answers: unknown[] = [undefined, null, false, true];
    expect(await eventually(() => answers.shift() as boolean | undefined, { intervalMs: 1 })).toBe(true);
    expect(answers).toEqual([]);
  });

  it("fails after the time-out, naming what it waited for (read at the time-out when it is a function)", async () => {
    let seen = 0;
    const waiting = eventually(() => (seen++, false), { what: () => `the notification (seen ${seen})`, timeoutMs: 50, intervalMs: 5 });
    await expect(waiting).rejects.toBeInstanceOf(EventuallyTimeout);
    await expect(eventually(() => false, { what: "the notification", timeoutMs: 20 })).rejects.toThrow(/timed out after 20 ms waiting for the notification/);
    const started = Date.now();
    await expect(eventually(() => undefined, { timeoutMs: 120, intervalMs: 10 })).rejects.toThrow(/waiting for a condition/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("ends with undefined at the time-out when asked to return", async () => {
    expect(await eventually(() => false, { timeoutMs: 20, intervalMs: 5, onTimeout: "return" })).toBeUndefined();
  });

  it("lets an error of the probe through at once", async () => {
    let calls = 0;
    const failing = eventually(() => {
      calls++;
      throw new Error("the service exited");
    });
    await expect(failing).rejects.toThrow("the service exited");
    expect(calls).toBe(1);
  });

  it("runs `between` after each pause, before the next question", async () => {
    const order: string[] = [];
    let clock = 0;
    await eventually(() => (order.push(`probe@${clock}`), clock >= 2), { intervalMs: 1, between: () => void (clock++, order.push("tick")) });
    expect(order).toEqual(["probe@0", "tick", "probe@1", "tick", "probe@2"]);
  });
});

describe("quietFor()", () => {
  it("lets the time pass", async () => {
    const started = Date.now();
    await quietFor(60, "the test shows nothing happens meanwhile");
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
