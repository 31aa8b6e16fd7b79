// Health by role, and readiness / liveness (docs/operations.md §3): a web process has no executor of
// its own and judges background work from the database; readiness turns 503 the moment shutdown
// starts, while liveness stays 200.
import { ulid } from "ulid";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/health/ready/route";
import { GET as live } from "@/app/api/health/live/route";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { clearExecutorHeartbeat, reportExecutorHeartbeat } from "@/lib/inngest/executor-status";
import { clearShutdownState, markShuttingDown } from "@/lib/runtime/shutdown-state";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();
// The health checks give the database 2 s; open the pool first so a cold connection on a busy
// machine is not what the first check measures.
beforeAll(async () => {
  await db().$queryRaw`SELECT 1`;
});

function useRole(role: string | undefined): void {
  if (role === undefined) delete process.env.ROLE;
  else process.env.ROLE = role;
  resetConfig();
}

afterEach(() => {
  useRole(undefined);
  clearExecutorHeartbeat();
  clearShutdownState();
});

async function json(response: Response | Promise<Response>) {
  const answer = await response;
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> & { api?: { api: string; status: string; msg: string }[] } };
}

describe("a web-role process (ROLE=web)", () => {
  it("is healthy without an executor of its own while no due work waits; in error once an event waits unclaimed for over a minute", async () => {
    useRole("web");
    const fresh = await json(health(new Request("http://localhost/api/health")));
    expect(fresh.status).toBe(200);
    expect((await json(ready())).status).toBe(200); // readiness of a web process: database only

    await db().inngestEvent.create({
      data: { id: ulid(), name: "test/forgotten", payload: { name: "test/forgotten", data: {} }, receivedAt: new Date(Date.now() - 90_000) },
    });
    const stuck = await json(health(new Request("http://localhost/api/health")));
    expect(stuck.status).toBe(503);
    const capture = stuck.body.api!.find((entry) => entry.api === "capture")!;
    expect(capture.status).toBe("error");
    expect(capture.msg).toMatch(/background work is not being taken: due for 9\d s/);
    expect(stuck.body.api!.find((entry) => entry.api === "payout")!.status).toBe("ok");
    await db().inngestEvent.deleteMany({ where: { name: "test/forgotten" } });
  });
});

describe("GET /api/health/ready and /api/health/live", () => {
  it("readiness needs this process's executor polling (role all); answers 503 at once when shutdown starts; liveness stays 200", async () => {
    const withoutExecutor = await json(ready());
    expect(withoutExecutor.status).toBe(503);
    expect(withoutExecutor.body).toMatchObject({ ready: false, role: "all", status: "not-ready", checks: { executor: { status: "error" } } });

    reportExecutorHeartbeat();
    expect(await json(ready())).toMatchObject({ status: 200, body: { ready: true, status: "ready" } });

    markShuttingDown();
    expect(await json(ready())).toMatchObject({ status: 503, body: { ready: false, status: "shutting-down" } });
    expect(await json(live())).toEqual({ status: 200, body: { status: "live" } });
  });
});
