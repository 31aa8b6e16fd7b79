// step.waitForEvent conditions as the SDK sends them (`match` becomes event.x == async.x).
import { describe, expect, it } from "vitest";
import { parseWaitCondition, waitConditionHolds } from "@/lib/inngest/executor/wait-conditions";

const event = { name: "review/requested", data: { paymentId: "p1", merchant: { id: 7 } } };

describe("wait conditions", () => {
  it("compare paths of the run's event and the candidate", () => {
    const condition = parseWaitCondition("event.data.paymentId == async.data.paymentId");
    expect(condition).toBeDefined();
    expect(waitConditionHolds(condition!, { event, async: { data: { paymentId: "p1" } } })).toBe(true);
    expect(waitConditionHolds(condition!, { event, async: { data: { paymentId: "p2" } } })).toBe(false);
    expect(waitConditionHolds(condition!, { event, async: { data: {} } })).toBe(false);
  });

  it("compare with text, number and boolean literals, joined with &&", () => {
    const condition = parseWaitCondition(
      `async.data.status == 'approved' && async.data.level == 2 && event.data.merchant.id == 7 && async.data.final == true`,
    );
    expect(waitConditionHolds(condition!, { event, async: { data: { status: "approved", level: 2, final: true } } })).toBe(true);
    expect(waitConditionHolds(condition!, { event, async: { data: { status: "approved", level: 3, final: true } } })).toBe(false);
  });

  it("refuse what they cannot evaluate", () => {
    expect(parseWaitCondition("async.data.amount > 100")).toBeUndefined();
    expect(parseWaitCondition("async.data.tags.exists(t, t == 'x')")).toBeUndefined();
    expect(parseWaitCondition("event.data.a == async.data.a || true")).toBeUndefined();
  });
});
