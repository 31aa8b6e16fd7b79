// Two real service processes (scripts/start.ts, a production build) on one database: each runs its
// own embedded executor, and every cron job still runs once per schedule. The runs are counted in
// the database both processes share, per fire time. In the fault suite, which runs beside the others:
// it mostly waits (two full minutes of fire times).
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { everyMinuteFunctions } from "@/tests/helpers/every-minute-functions";
import { startService, type ServiceProcess } from "@/tests/helpers/service-process";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

const ROOT = path.resolve(import.meta.dirname, "../..");
const database = useTestDatabase();

const services: ServiceProcess[] = [];
afterAll(async () => {
  for (const service of services) await service.stop();
});

describe("two service processes on one database", { timeout: 900_000 }, () => {
  it("run every cron job once per minute", async () => {
    const dataDir = path.join(ROOT, ".data-test", `jobs-two-processes-${process.pid}`);
    const env = { DATABASE_URL: database.current().url, INNGEST_EMBEDDED_POLL_MS: "200" };
    // One after the other: the first creates the local secrets both then share. Each is waited for
    // until GET /api/health answers 200, which needs its own embedded executor's heartbeat.
    services.push(await startService({ env, dataDir, timeoutMs: 600_000 }));
    services.push(await startService({ env, dataDir, timeoutMs: 600_000 }));
    const bothUp = new Date();

    const functionIds = everyMinuteFunctions.map((fn) => `${inngest.id}-${fn.id()}`);
    // Fire times after both processes were up: two full minutes of them.
    const firstFull = new Date(Math.ceil(bothUp.getTime() / 60_000) * 60_000);
    const lastFull = new Date(firstFull.getTime() + 60_000);
    let runs: { functionId: string; fireAt: string; status: string }[] = [];
    // Until the last fire time's runs completed, or 2 minutes after it (the counts below then say what is missing).
    await eventually(
      async () => {
        const rows = await db().inngestRun.findMany({
          where: { functionId: { in: functionIds } },
          select: { functionId: true, status: true, event: true },
        });
        runs = rows.map((row) => ({
          functionId: row.functionId,
          fireAt: new Date(Number((row.event as { ts?: number }).ts)).toISOString(),
          status: row.status,
        }));
        const completedLast = runs.filter((run) => run.fireAt === lastFull.toISOString() && run.status === "completed");
        return completedLast.length >= functionIds.length;
      },
      { timeoutMs: lastFull.getTime() + 120_000 - Date.now(), intervalMs: 1_000, onTimeout: "return" },
    );

    const perFireTime = new Map<string, number>();
    for (const run of runs) perFireTime.set(`${run.functionId} ${run.fireAt}`, (perFireTime.get(`${run.functionId} ${run.fireAt}`) ?? 0) + 1);
    // Every fire time of every cron job ran once, never twice ...
    expect([...perFireTime.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    // ... and each job ran at both full minutes after the two processes were up.
    for (const functionId of functionIds) {
      for (const fireAt of [firstFull, lastFull]) {
        expect(perFireTime.get(`${functionId} ${fireAt.toISOString()}`), `${functionId} at ${fireAt.toISOString()}`).toBe(1);
      }
    }
  });
});
