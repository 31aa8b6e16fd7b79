// GET /api/health answers in the spec's shape from real checks.
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { clearExecutorHeartbeat, reportExecutorHeartbeat } from "@/lib/inngest/executor-status";
import { disconnectDb } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { checkDatabase, hostMemberNames } from "@/lib/health/check-health";
import { captureLogs } from "@/lib/observability/logger";
import { useTestDatabase } from "../helpers/test-database";

const database = useTestDatabase();

afterEach(() => {
  clearExecutorHeartbeat();
});

async function health(headers: Record<string, string> = {}) {
  const response = await GET(new Request("http://localhost/api/health", { headers }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { api: Array<Record<string, string>> } };
}

describe("GET /api/health", () => {
  it("is ok with every interface, the back office and the website when the database and executor are up", async () => {
    reportExecutorHeartbeat();
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.api).toEqual(
      ["cit", "mit", "capture", "refund", "payout", "payment"].map((api) => ({ api, status: "ok", msg: "" })),
    );
    expect(body.backoffice).toEqual({ status: "ok", msg: "" });
    expect(body.website).toEqual({ status: "ok", msg: "" });
    expect(Object.keys(body)).toEqual(["api", "backoffice", "website"]);
  });

  it("echoes the TraceApi header", async () => {
    reportExecutorHeartbeat();
    const trace = "7d4f5c7e-2f0b-4b8e-9a57-1c2d3e4f5a6b";
    const response = await GET(new Request("http://localhost/api/health", { headers: { TraceApi: trace } }));
    expect(response.headers.get("TraceApi")).toBe(trace);
  });

  it("reports the asynchronous interfaces in error while the background executor is not running", async () => {
    const { status, body } = await health();
    expect(status).toBe(503);
    const byName = Object.fromEntries(body.api.map((entry) => [entry.api, entry]));
    expect(byName.payout).toEqual({ api: "payout", status: "ok", msg: "" });
    expect(byName.capture).toEqual({ api: "capture", status: "error", msg: "background executor is not running" });
  });

  it("reports a stale executor heartbeat", async () => {
    reportExecutorHeartbeat();
    const realNow = Date.now;
    Date.now = () => realNow() + 60_000;
    try {
      const { body } = await health();
      expect(body.api[0]!.msg).toMatch(/has not polled for 60 s/);
    } finally {
      Date.now = realNow;
    }
  });

  it("reports every part in error when the database does not answer", async () => {
    reportExecutorHeartbeat();
    await disconnectDb();
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:9/none";
    resetConfig();
    try {
      const { status, body } = await health();
      expect(status).toBe(503);
      for (const entry of body.api) {
        expect(entry.status).toBe("error");
        expect(entry.msg).toMatch(/^database: /);
      }
      expect((body.backoffice as { status: string }).status).toBe("error");
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = database.current().url;
      resetConfig();
    }
  });

  it("N10: logs an unanswered database check with its reason and no stack; while the process starts, as info (30), not as a warning (40)", async () => {
    await disconnectDb();
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:9/none";
    resetConfig();
    const uptime = vi.spyOn(process, "uptime");
    try {
      for (const [seconds, level] of [
        [5, 30],
        [600, 40],
      ] as const) {
        uptime.mockReturnValue(seconds);
        const capture = captureLogs({ level: "info" });
        try {
          await checkDatabase();
        } finally {
          capture.stop();
        }
        const entries = capture.entries().filter((entry) => entry.component === "health");
        expect(entries, `at ${seconds} s`).toHaveLength(1);
        expect(entries[0]).toMatchObject({ level, reason: expect.any(String) });
        expect(JSON.stringify(entries[0])).not.toContain('"stack"');
        expect(entries[0]).not.toHaveProperty("err");
      }
    } finally {
      uptime.mockRestore();
      await disconnectDb();
      process.env.DATABASE_URL = database.current().url;
      resetConfig();
    }
  });
});

describe("hostMemberNames", () => {
  it("names the back-office and website members by their hosts when they differ", () => {
    expect(hostMemberNames("https://backoffice.pay.example", "https://www.pay.example")).toEqual({
      backoffice: "backoffice.pay.example",
      website: "www.pay.example",
    });
    expect(hostMemberNames("http://localhost:3000", "http://localhost:3000")).toEqual({ backoffice: "backoffice", website: "website" });
  });
});
