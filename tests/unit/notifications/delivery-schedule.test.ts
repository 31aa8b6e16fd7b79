import { describe, expect, it } from "vitest";
import { DELIVERY_SCHEDULE } from "@/lib/notifications/delivery-schedule";

describe("delivery schedule (spec 6.2)", () => {
  it("is one immediate attempt, 3 retries 3 s apart, 3 retries 1 h apart and a last one after 24 h", () => {
    expect(DELIVERY_SCHEDULE.map((step) => step.delayMs)).toEqual([0, 3000, 3000, 3000, 3_600_000, 3_600_000, 3_600_000, 86_400_000]);
    expect(DELIVERY_SCHEDULE.map((step) => step.delay)).toEqual(["0s", "3s", "3s", "3s", "1h", "1h", "1h", "24h"]);
    expect(DELIVERY_SCHEDULE.map((step) => step.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("uses the per-attempt time-outs of rule 3: 5 s up to the 3-second retries, 15 s for the hourly and the last", () => {
    expect(DELIVERY_SCHEDULE.map((step) => step.timeoutMs)).toEqual([5000, 5000, 5000, 5000, 15000, 15000, 15000, 15000]);
  });
});
