// Issue 37: each process caches API keys (and initdynamic's settings) until any process changes
// them (lib/db/settings-cache.ts, docs/decisions/0170-settings-cache.md). Two more processes serve
// the merchant API on the test database (tests/helpers/merchant-api-process.ts); the tests show
// that they do serve keys from their cache (a change that sends no notification is not seen), that
// a revocation made anywhere is refused by both at their very next request, and that a process
// whose listening connection was lost drops its cache instead of trusting it.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { db } from "@/lib/db";
import { eventually } from "@/tests/helpers/eventually";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const database = useTestDatabase();

interface ApiProcess {
  baseUrl: string;
  child: ChildProcess;
}

const processes: ApiProcess[] = [];

async function startApiProcess(): Promise<ApiProcess> {
  const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), [path.join(ROOT, "tests/helpers/merchant-api-process.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.current().url },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true, // its own process group: stopped through it
  });
  const line = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const ready = output.split("\n").find((candidate) => candidate.startsWith("{"));
      if (ready) resolve(ready);
    });
    child.once("exit", (code) => reject(new Error(`the merchant API process exited with ${code}`)));
  });
  const { baseUrl, caching } = JSON.parse(line) as { baseUrl: string; caching: boolean };
  expect(caching).toBe(true);
  const started = { baseUrl, child };
  processes.push(started);
  return started;
}

async function initdynamic(target: ApiProcess, merchant: TestMerchant): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${target.baseUrl}/api/initdynamic`, {
    method: "POST",
    headers: { authorization: `Basic ${merchant.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ merchantid: merchant.merchantId, amount: 250, currency: "DKK", notificationurl: "http://127.0.0.1:9/notify" }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Changes the key's row without firing triggers (so without a notification): a change no process is told of. */
async function silentlyRevoke(merchant: TestMerchant): Promise<void> {
  const client = new pg.Client({ connectionString: database.current().url });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "merchantId" = $1 AND "mode" = 'test'`, [merchant.merchantId]);
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}

const REVOKED = { error: "INVALID_API_KEY", errordescription: "Authorization: the API key is revoked" };

let a: ApiProcess;
let b: ApiProcess;

beforeAll(async () => {
  // Only where notifications cross connections (PostgreSQL): on PGlite nothing is cached at all.
  if (database.current().engine !== "postgres") return;
  [a, b] = await Promise.all([startApiProcess(), startApiProcess()]);
}, 180_000);

afterAll(() => {
  for (const { child } of processes) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
});

describe("the settings cache across processes", { timeout: 120_000 }, () => {
  it("serves a key from the cache: a change nobody is notified of is not seen", async (context) => {
    if (database.current().engine !== "postgres") return context.skip();
    const merchant = await createTestMerchant();
    expect((await initdynamic(a, merchant)).status).toBe(200);
    await silentlyRevoke(merchant);
    // Process A cached the key; B reads it now, after the change, and sees it.
    expect((await initdynamic(a, merchant)).status).toBe(200);
    expect((await initdynamic(b, merchant)).body).toEqual(REVOKED);
  });

  it("a key revoked in any process is refused by every process within a second (milliseconds after the commit)", async (context) => {
    if (database.current().engine !== "postgres") return context.skip();
    for (let round = 0; round < 5; round++) {
      const merchant = await createTestMerchant();
      // Both processes have the key cached (a second request is served from the cache).
      for (const target of [a, b, a, b]) expect((await initdynamic(target, merchant)).status).toBe(200);
      const key = await db().apiKey.findFirstOrThrow({ where: { merchantId: merchant.merchantId, mode: "test" }, select: { id: true } });
      await revokeApiKey({ merchantId: merchant.merchantId, mode: "test", apiKeyId: key.id });
      // The notification reaches the other processes' listening connections at commit, beside the
      // next request on another socket: on a loaded machine that request may be read first. The
      // promise is milliseconds, so each process must refuse the key within one second.
      for (const [name, target] of [["a", a], ["b", b]] as const) {
        const refused = await eventually(
          async () => {
            const answer = await initdynamic(target, merchant);
            return JSON.stringify(answer.body) === JSON.stringify(REVOKED) ? answer.body : undefined;
          },
          { what: `process ${name} refusing the revoked key (round ${round})`, timeoutMs: 1_000, intervalMs: 20 },
        );
        expect(refused).toEqual(REVOKED);
      }
    }
  });

  it("a process whose listening connection was lost drops its cache instead of trusting it", async (context) => {
    if (database.current().engine !== "postgres") return context.skip();
    const merchant = await createTestMerchant();
    for (const target of [b, b]) expect((await initdynamic(target, merchant)).status).toBe(200);
    // The server ends the listeners' connections (an admin, a failover, a network cut) ...
    const admin = new pg.Client({ connectionString: database.current().url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'cps-settings-listen'`,
      );
      expect(rowCount).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    // ... and a change made meanwhile is notified to nobody.
    await silentlyRevoke(merchant);
    expect((await initdynamic(b, merchant)).body).toEqual(REVOKED);
  });
});
