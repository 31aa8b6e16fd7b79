// Security review 3, L5: the public, unauthenticated /api/health showed the first line of database and
// driver errors (for example `connect ECONNREFUSED 10.0.3.7:5432`: an internal address). It now shows
// fixed texts; the detail goes to the log only.
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { clearExecutorHeartbeat, reportExecutorHeartbeat } from "@/lib/inngest/executor-status";
import { disconnectDb } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();

afterEach(() => clearExecutorHeartbeat());

async function healthText(): Promise<string> {
  const response = await GET(new Request("http://localhost/api/health"));
  return response.text();
}

describe("L5: /api/health shows no error text", () => {
  it("L5: an unreachable database is reported as a fixed text, without the driver's message or the address", async () => {
    reportExecutorHeartbeat();
    await disconnectDb();
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:9/none";
    resetConfig();
    try {
      const text = await healthText();
      const body = JSON.parse(text) as { api: Array<{ msg: string }> };
      expect(body.api[0]!.msg).toBe("database: unreachable");
      expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|:9\b|postgres/i);
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = database.current().url;
      resetConfig();
    }
  });

  it("L5: a failed executor poll is reported as a fixed text, without the error's message", async () => {
    reportExecutorHeartbeat("connect ECONNREFUSED 10.0.3.7:5432");
    const text = await healthText();
    expect(text).not.toContain("10.0.3.7");
    expect(text).not.toContain("ECONNREFUSED");
    expect(text).toContain("background executor: its last poll failed");
  });
});
