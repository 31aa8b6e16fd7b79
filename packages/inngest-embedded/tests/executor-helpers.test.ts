// Pure parts of the embedded executor: durations, backoff, signatures, trigger matching.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelayMs } from "../src/backoff";
import { TestClock } from "../src/clock";
import { parseDurationMs, sleepWakeTime } from "../src/duration";
import { signatureHeader, verifySignature } from "../src/signature";
import {
  cronFireTimes,
  keyOf,
  parseCronTrigger,
  parseKeyExpression,
  parseTriggerExpression,
  toFunctionDefinition,
  triggerMatches,
} from "../src/sync-functions";

describe("sleep durations", () => {
  it("reads the SDK's time strings", () => {
    expect(parseDurationMs("2s")).toBe(2_000);
    expect(parseDurationMs("1h30m")).toBe(5_400_000);
    expect(parseDurationMs("1d")).toBe(86_400_000);
    expect(parseDurationMs("1w2d3h4m5s")).toBe(((7 + 2) * 24 * 3600 + 3 * 3600 + 4 * 60 + 5) * 1000);
    expect(parseDurationMs("250ms")).toBe(250);
    expect(() => parseDurationMs("soon")).toThrow(/not a duration/);
    expect(() => parseDurationMs("")).toThrow();
  });

  it("wakes a duration after now, and a sleepUntil date at that date", () => {
    const now = new Date("2026-01-01T00:00:00.000Z");
    expect(sleepWakeTime("3s", now).toISOString()).toBe("2026-01-01T00:00:03.000Z");
    expect(sleepWakeTime("2030-01-01T00:00:00.000Z", now).toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(() => sleepWakeTime("whenever", now)).toThrow(/neither a duration nor a date/);
  });

  it("a test clock only moves forward", () => {
    const clock = new TestClock(new Date("2026-01-01T00:00:00.000Z"));
    expect(clock.advance("24h").toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(clock.advanceTo(new Date("2025-01-01T00:00:00.000Z")).toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(() => clock.advance(-1)).toThrow();
  });
});

describe("retry backoff", () => {
  it("follows the Inngest server's table, capped at 2 h, plus jitter", () => {
    const noJitter = (attempt: number) => retryDelayMs({ attempt, jitterMs: 30_000, random: () => 0 });
    expect([0, 1, 2, 3, 4].map(noJitter)).toEqual([15_000, 30_000, 60_000, 120_000, 300_000]);
    expect(noJitter(9)).toBe(7_200_000);
    expect(noJitter(50)).toBe(7_200_000);
    expect(retryDelayMs({ attempt: 0, jitterMs: 30_000, random: () => 0.999 })).toBe(15_000 + 29_970);
  });

  it("reads Retry-After as seconds or a date", () => {
    const now = new Date("2026-01-01T00:00:00.000Z");
    expect(parseRetryAfter("30", now)?.toISOString()).toBe("2026-01-01T00:00:30.000Z");
    expect(parseRetryAfter("2030-01-01T00:00:00.000Z", now)?.toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("later", now)).toBeUndefined();
  });
});

describe("signatures", () => {
  it("HMAC the body and timestamp with the key text after its signkey-<env>- prefix", () => {
    const now = new Date(1_767_225_600_000);
    const header = signatureHeader({ body: '{"a":1}', signingKey: "signkey-test-abc123", now });
    const expected = createHmac("sha256", "abc123").update('{"a":1}1767225600').digest("hex");
    expect(header).toBe(`t=1767225600&s=${expected}`);
  });

  it("verify a signature over the exact body only", () => {
    const header = signatureHeader({ body: "hello", signingKey: "signkey-prod-k", now: new Date() });
    expect(verifySignature({ body: "hello", signingKey: "signkey-prod-k", header })).toBe(true);
    expect(verifySignature({ body: "hello!", signingKey: "signkey-prod-k", header })).toBe(false);
    expect(verifySignature({ body: "hello", signingKey: "signkey-prod-other", header })).toBe(false);
    expect(verifySignature({ body: "hello", signingKey: "signkey-prod-k", header: null })).toBe(false);
  });
});

describe("function definitions from an in-band sync", () => {
  it("read retries (default 4, so 5 attempts) and event triggers; refuse unreadable crons and expressions", () => {
    const plain = toFunctionDefinition({ id: "app-a", triggers: [{ event: "x/y" }], steps: { step: {} } });
    expect(plain).toEqual({
      definition: { id: "app-a", triggers: [{ event: "x/y", conditions: [] }], maxAttempts: 5 },
      problems: [],
      unsupported: [],
    });
    const noRetries = toFunctionDefinition({ id: "app-b", triggers: [{ event: "x/y" }], steps: { step: { retries: { attempts: 0 } } } });
    expect(noRetries.definition.maxAttempts).toBe(1);
    const odd = toFunctionDefinition({
      id: "app-c",
      triggers: [{ cron: "not a cron" }, { event: "x/z", expression: "event.data.n > 3" }],
      steps: { step: {} },
    });
    expect(odd.definition.triggers).toEqual([]);
    expect(odd.definition.crons).toBeUndefined();
    expect(odd.unsupported).toHaveLength(2);
  });

  it("read cron triggers with an optional time zone and list their fire times", () => {
    const { definition } = toFunctionDefinition({
      id: "app-e",
      triggers: [{ cron: "TZ=Europe/Copenhagen 0 9 * * 1-5" }],
      steps: { step: {} },
    });
    expect(definition.crons).toEqual([{ cron: "TZ=Europe/Copenhagen 0 9 * * 1-5", expression: "0 9 * * 1-5", tz: "Europe/Copenhagen" }]);
    const schedule = parseCronTrigger("TZ=Europe/Copenhagen 0 9 * * 1-5");
    // Friday 2026-03-06 to Tuesday 2026-03-10: Friday, Monday, Tuesday at 09:00 Copenhagen (08:00 UTC).
    const times = cronFireTimes(schedule!, new Date("2026-03-06T00:00:00Z"), new Date("2026-03-10T12:00:00Z"));
    expect(times.map((time) => time.toISOString())).toEqual([
      "2026-03-06T08:00:00.000Z",
      "2026-03-09T08:00:00.000Z",
      "2026-03-10T08:00:00.000Z",
    ]);
    expect(parseCronTrigger("*/15 * * * *")?.tz).toBe("UTC");
    expect(parseCronTrigger("every day")).toBeUndefined();
  });

  it("match a trigger expression on event paths", () => {
    const conditions = parseTriggerExpression("event.data.kind == 'capture'");
    expect(conditions).toEqual([{ path: ["data", "kind"], value: "capture" }]);
    const trigger = { event: "payment/settled", conditions: conditions ?? [] };
    expect(triggerMatches(trigger, { name: "payment/settled", data: { kind: "capture" } })).toBe(true);
    expect(triggerMatches(trigger, { name: "payment/settled", data: { kind: "refund" } })).toBe(false);
    expect(triggerMatches(trigger, { name: "payment/other", data: { kind: "capture" } })).toBe(false);
    expect(parseTriggerExpression(`event.data.a == "x" && event.data.b.c == 'y'`)).toHaveLength(2);
    expect(parseTriggerExpression("event.data.a != 'x'")).toBeUndefined();
  });
});

describe("features the embedded executor does not implement", () => {
  const read = (fields: Record<string, unknown>) =>
    toFunctionDefinition({ id: "app-f", triggers: [{ event: "x/y" }], steps: { step: {} }, ...fields });

  it("are refused by name: cancelOn, run idempotency, flow control", () => {
    expect(read({ cancel: [{ event: "session/paid" }] }).unsupported).toEqual(["app-f: cancelOn"]);
    expect(read({ idempotency: "event.data.paymentId" }).unsupported).toEqual(["app-f: idempotency"]);
    expect(read({ throttle: { limit: 1, period: "1m" } }).unsupported).toEqual(["app-f: throttle"]);
    expect(read({}).unsupported).toEqual([]);
  });

  it("refuse an onFailure handler and a trigger expression it cannot evaluate", () => {
    const onFailure = toFunctionDefinition({
      id: "app-f-failure",
      triggers: [{ event: "inngest/function.failed", expression: "event.data.function_id == 'app-f'" }],
      steps: { step: {} },
    });
    expect(onFailure.unsupported[0]).toMatch(/^app-f-failure: onFailure/);
    expect(read({ triggers: [{ event: "x/y", expression: "event.data.n > 1" }] }).unsupported[0]).toMatch(/trigger expression/);
  });
});

describe("concurrency keys", () => {
  it("evaluate event paths and quoted text joined with +", () => {
    const parts = parseKeyExpression(`event.data.kind + "-" + event.data.id`);
    expect(keyOf(parts, { name: "x", data: { kind: "capture", id: 42 } })).toBe("capture-42");
    expect(keyOf(parts, { name: "x", data: { kind: "capture" } })).toBeNull();
    expect(keyOf(parseKeyExpression("event.data.paymentId"), { data: { paymentId: "p1" } })).toBe("p1");
    expect(parseKeyExpression("event.data.a.size()")).toBeUndefined();
  });

  it("are read from the sync", () => {
    const result = toFunctionDefinition({
      id: "app-d",
      triggers: [{ event: "x/y" }],
      steps: { step: {} },
      concurrency: [{ limit: 1, key: "event.data.paymentId" }],
    });
    expect(result.definition.concurrency).toEqual({ limit: 1, key: [{ path: ["data", "paymentId"] }] });
    expect(result.problems).toEqual([]);
  });

  it("read concurrency as a number or {limit, key}; other scopes and a second limit are reported", () => {
    const read = (concurrency: unknown) => toFunctionDefinition({ id: "f", triggers: [], steps: { step: {} }, concurrency });
    expect(read(3).definition.concurrency).toEqual({ limit: 3 });
    expect(read(0).definition.concurrency).toBeUndefined();
    expect(read({ limit: 2, key: "event.data.a", scope: "fn" }).definition.concurrency).toEqual({
      limit: 2,
      key: [{ path: ["data", "a"] }],
    });
    const account = read({ limit: 5, scope: "account", key: '"x"' });
    expect(account.definition.concurrency).toBeUndefined();
    expect(account.problems[0]).toMatch(/scope "account"/);
    const two = read([{ limit: 1, key: "event.data.a" }, { limit: 10 }]);
    expect(two.definition.concurrency).toEqual({ limit: 1, key: [{ path: ["data", "a"] }] });
    expect(two.problems[0]).toMatch(/only the first/);
  });
});
