// Security issue 10, "Done when": a production start (NODE_ENV=production, secrets set, PostgreSQL)
// has no demo merchant, answers 404 on /demo-shop, prints no credentials, refuses http and private
// notification addresses, and starts with sandboxes only when explicitly enabled. Plus item 10's
// path cases that only Next's own routing shows: a path id that is not UTF-8 once decoded.
//
// The real service (scripts/start.ts and the Next production build, tests/helpers/service-process.ts)
// against a throwaway PostgreSQL 15 cluster started here (scripts/pg-test-cluster.sh: initdb and
// pg_ctl as the postgres user, on a port of its own), since this project runs in a network
// namespace where no outside server is reachable.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startService, type ServiceProcess } from "@/tests/helpers/service-process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLUSTER_SCRIPT = path.join(ROOT, "scripts/pg-test-cluster.sh");

let clusterDir: string;
let pgPort: number;
let databaseUrl: string;
let service: ServiceProcess;
let dataDir: string;
const secrets = {
  SESSION_SECRET: randomBytes(32).toString("base64url"),
  CARD_DATA_KEY: randomBytes(32).toString("base64"),
  API_KEY_SECRET: randomBytes(32).toString("base64url"),
};

function cluster(action: "start" | "stop"): string {
  return execFileSync("bash", [CLUSTER_SCRIPT, action], { env: { ...process.env, PG_TEST_PORT: String(pgPort), PG_TEST_DIR: clusterDir }, encoding: "utf8" });
}

/** The environment of a production start: no local mode, no demo, secrets set, PostgreSQL. */
function productionEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: "production",
    CPS_LOCAL: undefined,
    PROCESSOR_SANDBOXES: undefined,
    INNGEST_DEV: undefined,
    DATABASE_URL: databaseUrl,
    TEST_DATABASE_URL: undefined,
    ...secrets,
    ...extra,
  };
}

async function waitForOutput(running: ServiceProcess, pattern: RegExp, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(running.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
}

/** fetch, once more on a socket the server closed between keep-alive requests (not an answer of the service). */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A merchant and API key made with the service's own code and secrets (an operator runs `npm run cli -- merchant create`). */
function createMerchant(): { merchantid: string; apikey: string } {
  const output = execFileSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/cli.ts", "merchant", "create", "--name", "Prod Shop", "--json"], {
    cwd: ROOT,
    env: { ...process.env, ...productionEnv(), DATA_DIR: dataDir } as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return JSON.parse(output) as { merchantid: string; apikey: string };
}

beforeAll(async () => {
  pgPort = await freePort();
  clusterDir = mkdtempSync(path.join(tmpdir(), "cps-prod-pg-"));
  rmSync(clusterDir, { recursive: true, force: true }); // the script creates it, owned by postgres
  cluster("start");
  databaseUrl = `postgresql://postgres@127.0.0.1:${pgPort}/postgres`;
  dataDir = mkdtempSync(path.join(tmpdir(), "cps-prod-data-"));
  service = await startService({ env: productionEnv(), dataDir, waitFor: "answer", timeoutMs: 240_000 });
  // The banner comes once the launcher has seen health answer (and given background work time to report).
  await waitForOutput(service, /Card Payment Service is running/);
}, 1_500_000);

afterAll(async () => {
  await service?.stop();
  if (clusterDir) cluster("stop");
  rmSync(clusterDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a production start", () => {
  it("done when: no demo merchant is seeded and no credentials file is written", async () => {
    expect(await query("SELECT id FROM \"Merchant\"")).toEqual([]);
    expect(await query("SELECT id FROM \"User\"")).toEqual([]);
    expect(existsSync(path.join(dataDir, "demo.json"))).toBe(false);
    expect(readdirSync(dataDir).filter((name) => name.startsWith("demo"))).toEqual([]);
  });

  it("done when: /demo-shop answers 404 on every host name, forged or not", async () => {
    for (const host of [`localhost:${service.port}`, `127.0.0.1:${service.port}`, "attacker.example"]) {
      const response = await request(`http://127.0.0.1:${service.port}/demo-shop?notificationurl=http://127.0.0.1:9/x`, { headers: { host } });
      expect(response.status, host).toBe(404);
    }
  });

  it("done when: the start prints no credentials", () => {
    const output = service.output();
    expect(output).toContain("Card Payment Service is running");
    expect(output).not.toMatch(/cps_[0-9A-Za-z]{8}/);
    expect(output).not.toMatch(/demo\.json|Demo sign-in|Demo shop|password/i);
    for (const value of Object.values(secrets)) expect(output).not.toContain(value);
  });

  it("done when: sandboxes do not start unless explicitly enabled", async () => {
    expect(service.output()).not.toMatch(/sandboxes: /);
    const threeDs = await request(`http://127.0.0.1:${service.port}/sandbox/threeds/auth`, { method: "POST", body: "{}" });
    expect(threeDs.status).toBe(404);
    expect(await threeDs.text()).toBe("no 3-D Secure sandbox runs in this service");
  });

  it("done when: http and private notification addresses are refused with INVALID_PARAMETER", async () => {
    const { merchantid, apikey } = createMerchant();
    const init = (notificationurl: string) =>
      request(`http://127.0.0.1:${service.port}/api/initdynamic`, {
        method: "POST",
        headers: { authorization: `Basic ${apikey}`, "content-type": "application/json" },
        body: JSON.stringify({ merchantid, amount: 1000, currency: "DKK", notificationurl }),
      });
    for (const address of [
      "http://shop.example/notify",
      "https://127.0.0.1/notify",
      "https://10.0.0.8/notify",
      "https://192.168.1.1/notify",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/notify",
      "https://[fd00::1]/notify",
      "https://[::ffff:10.0.0.1]/notify",
    ]) {
      const response = await init(address);
      const body = (await response.json()) as { error?: string; errordescription?: string };
      expect(response.status, address).toBe(400);
      expect(body.error, address).toBe("INVALID_PARAMETER");
      expect(body.errordescription, address).toMatch(/^notificationurl: /);
    }
  });

  it("item 10: a path id that is not UTF-8 once decoded answers the spec's 400 with a request id, not Next's plain 500", async () => {
    for (const raw of ["/api/%FF/capture", "/api/%C0%AF/refund", "/dynamic/%FF/pan", "/dynamic/x/payments/%E0%80/authorize", "/api/%00/payment"]) {
      const response = await request(`http://127.0.0.1:${service.port}${raw}`, { method: raw.endsWith("payment") || raw.endsWith("pan") ? "GET" : "POST" });
      const text = await response.text();
      expect(response.status, `${raw}: ${text.slice(0, 120)}`).toBe(400);
      expect(response.headers.get("x-request-id"), raw).toMatch(/^[a-f0-9]{32}$/);
      expect(JSON.parse(text), raw).toMatchObject({ error: "INVALID_PARAMETER" });
    }
  });

  it("done when: with PROCESSOR_SANDBOXES=1 the same production start runs the sandboxes", async () => {
    const secondDataDir = mkdtempSync(path.join(tmpdir(), "cps-prod-data-"));
    const withSandboxes = await startService({
      env: productionEnv({ PROCESSOR_SANDBOXES: "1" }),
      dataDir: secondDataDir,
      waitFor: "answer",
      timeoutMs: 240_000,
    });
    try {
      const deadline = Date.now() + 60_000;
      while (!/sandboxes: /.test(withSandboxes.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
      expect(withSandboxes.output()).toMatch(/sandboxes: /);
      const threeDs = await request(`http://127.0.0.1:${withSandboxes.port}/sandbox/threeds/auth`, { method: "POST", body: "{}" });
      // The directory server answers (and refuses a request without its key) instead of the mount's 404.
      expect(threeDs.status).toBe(401);
      expect(await threeDs.text()).not.toBe("no 3-D Secure sandbox runs in this service");
    } finally {
      await withSandboxes.stop();
      rmSync(secondDataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
