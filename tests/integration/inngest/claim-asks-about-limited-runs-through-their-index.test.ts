// Every claim of the embedded executor asks whether a run of a function with a concurrency limit
// has a job due (packages/inngest-embedded/src/claims.ts, "limitedDue"). With many active runs of
// unlimited functions (the bench's capture phase: 167 active, none limited), reading them all
// through the status index was two thirds of a claim's time (decision 0230). The plan of the claim
// the executor really sends must read the partial index of limited active runs instead.
import { ulid } from "ulid";
import { sqltag, type Sql } from "@prisma/client/runtime/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { claimDueJobsAndNextDue } from "@/packages/inngest-embedded/src/claims";
import type { ExecutorDatabase } from "@/packages/inngest-embedded/src/database";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const ACTIVE_UNLIMITED_RUNS = 600;
const runIds = Array.from({ length: ACTIVE_UNLIMITED_RUNS }, () => ulid());

beforeAll(async () => {
  await db().inngestRun.createMany({
    data: runIds.map((id, index) => ({
      id,
      functionId: "card-payment-service-none",
      eventId: ulid(),
      event: { name: "x", data: {} },
      maxAttempts: 3,
      status: (["queued", "running", "sleeping"] as const)[index % 3],
    })),
  });
  await db().inngestJob.create({ data: { id: ulid(), runId: runIds[0]!, kind: "discovery", hashedId: "", runAt: new Date(Date.now() - 1000) } });
  await db().$executeRawUnsafe(`ANALYZE "InngestRun"`);
});
afterAll(async () => {
  await db().inngestJob.deleteMany({ where: { runId: { in: runIds } } });
  await db().inngestRun.deleteMany({ where: { id: { in: runIds } } });
});

/** The database, except that the claim's statement is explained first (its plan, not run) and the plan kept. */
function explaining(plans: string[]): ExecutorDatabase {
  const database = db();
  return {
    $queryRaw: async <T,>(query: TemplateStringsArray | Sql, ...values: unknown[]) => {
      const statement = Array.isArray(query) ? sqltag(query as TemplateStringsArray, ...values) : (query as Sql);
      const [row] = await database.$queryRaw<{ "QUERY PLAN": unknown }[]>(sqltag`EXPLAIN (FORMAT JSON) ${statement}`);
      plans.push(JSON.stringify(row?.["QUERY PLAN"]));
      return database.$queryRaw<T>(statement);
    },
    $executeRaw: (query, ...values) => database.$executeRaw(query as TemplateStringsArray, ...values),
    $queryRawUnsafe: (query, ...values) => database.$queryRawUnsafe(query, ...values),
    $transaction: (fn, options) => database.$transaction((tx) => fn(tx), options),
  };
}

describe("a claim with many active runs of unlimited functions", () => {
  it("asks about limited runs through InngestRun_limited_active_idx, not through every active run, and still claims the due job", async () => {
    const plans: string[] = [];
    const claim = await claimDueJobsAndNextDue({ database: explaining(plans), workerId: "w-plan", now: new Date(), leaseMs: 60_000, limit: 10 });
    expect(claim.jobs.map((job) => job.runId)).toEqual([runIds[0]]);
    expect(plans).toHaveLength(1);
    expect(plans[0]).toContain("InngestRun_limited_active_idx");
    expect(plans[0]).not.toContain("InngestRun_status_idx");
  });
});
