// Cron triggers: one run per fire time on the test clock, none back-filled from before the
// executor started, and one run per fire time even with two executors.
import { describe, expect, it } from "vitest";
import { inngest } from "@/lib/inngest/client";
import { TestClock } from "@cps/inngest-embedded";
import { listRuns } from "@/lib/inngest/list-runs";
import { useInngestHarnesses } from "@/tests/helpers/inngest-harness";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const harnesses = useInngestHarnesses();

const ticks: string[] = [];
const quarterHourly = inngest.createFunction(
  { id: "quarter-hourly", triggers: [{ cron: "TZ=Europe/Copenhagen */15 * * * *" }] },
  async ({ event, step }) =>
    step.run("tick", () => {
      ticks.push(new Date(event.ts ?? 0).toISOString());
      return event.name;
    }),
);

describe("cron triggers", () => {
  it("start one run per fire time as the clock passes them", async () => {
    const harness = await harnesses.start({ functions: [quarterHourly], clock: new TestClock(new Date("2026-03-02T10:07:00.000Z")) });
    harness.startExecutor();
    await harness.waitUntilIdle();
    expect(ticks).toEqual([]); // 10:00 passed before the executors started: not back-filled

    harness.advance("8m");
    await harness.waitForRun({ functionId: "quarter-hourly", status: "completed" });
    harness.advance("30m");
    await harness.waitUntilIdle();
    await eventually(() => ticks.length >= 3, { timeoutMs: 20_000, intervalMs: 25, onTimeout: "return" });
    await harness.waitUntilIdle();

    expect(ticks.sort()).toEqual(["2026-03-02T10:15:00.000Z", "2026-03-02T10:30:00.000Z", "2026-03-02T10:45:00.000Z"]);
    const runs = await listRuns({ functionId: "quarter-hourly" });
    expect(runs.map((run) => [run.status, run.eventName])).toEqual([
      ["completed", "inngest/scheduled.timer"],
      ["completed", "inngest/scheduled.timer"],
      ["completed", "inngest/scheduled.timer"],
    ]);
  });
});
