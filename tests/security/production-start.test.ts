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
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, npmScript, startService, type ServiceProcess } from "@/tests/helpers/service-process";
import { eventually } from "../helpers/eventually";

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

/**
 * fetch, once more on a socket the server closed between keep-alive requests (not an answer of the
 * service). The second try goes on a connection of its own: the pool may hold another idle socket
 * the server closed meanwhile (both tries failed with "other side closed" once in CI). undici's
 * own fetch, since Node's built-in one does not take the npm package's dispatcher.
 */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    const fresh = new Agent();
    try {
      return (await undiciFetch(url, { ...(init as object), dispatcher: fresh } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
    } finally {
      void fresh.close().catch(() => undefined);
    }
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
function createMerchant(): { merchantid: string; apikey: string; testapikey: string; liveapikey: string } {
  const output = execFileSync(...npmScript("cli", ["merchant", "create", "--name", "Prod Shop", "--json"]), {
    cwd: ROOT,
    env: { ...process.env, ...productionEnv(), DATA_DIR: dataDir } as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return JSON.parse(output) as { merchantid: string; apikey: string; testapikey: string; liveapikey: string };
}

/** The operator CLI against the production database (`npm run cli -- …`). */
function cli(args: string[], extra: Record<string, string | undefined> = {}): string {
  return execFileSync(...npmScript("cli", args), {
    cwd: ROOT,
    env: { ...process.env, ...productionEnv(extra), DATA_DIR: dataDir } as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
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
  await eventually(() => /Card Payment Service is running/.test(service.output()), { timeoutMs: 90_000, intervalMs: 500, onTimeout: "return" });
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

  it("issue 28: the local outbox of kept mails answers 404 in production; the forgot-password page is served", async () => {
    const outbox = await request(`http://127.0.0.1:${service.port}/backoffice/outbox`);
    expect(outbox.status).toBe(404);
    const forgot = await request(`http://127.0.0.1:${service.port}/backoffice/forgot-password`);
    expect(forgot.status).toBe(200);
  });

  it("done when: the start prints no credentials", () => {
    const output = service.output();
    expect(output).toContain("Card Payment Service is running");
    // Keys of either mode (cps_test_…, cps_live_…) and keys from before modes (cps_…).
    expect(output).not.toMatch(/cps_(?:test_|live_)?[0-9A-Za-z]{7}/);
    expect(output).not.toMatch(/demo\.json|Demo sign-in|Demo shop|password/i);
    for (const value of Object.values(secrets)) expect(output).not.toContain(value);
  });

  it("issue 27: the built-in sandboxes run for test mode by default (live mode never reaches them)", async () => {
    await eventually(() => /sandboxes: /.test(service.output()), { timeoutMs: 60_000, intervalMs: 500, onTimeout: "return" });
    expect(service.output()).toMatch(/sandboxes: /);
    const threeDs = await request(`http://127.0.0.1:${service.port}/sandbox/threeds/auth`, { method: "POST", body: "{}" });
    // The directory server answers (and refuses a request without its key) instead of the mount's 404.
    expect(threeDs.status).toBe(401);
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

  it("done when: with PROCESSOR_SANDBOXES=0 the same production start runs no sandbox", async () => {
    const secondDataDir = mkdtempSync(path.join(tmpdir(), "cps-prod-data-"));
    const withoutSandboxes = await startService({
      env: productionEnv({ PROCESSOR_SANDBOXES: "0" }),
      dataDir: secondDataDir,
      waitFor: "answer",
      timeoutMs: 240_000,
    });
    try {
      await eventually(() => /Card Payment Service is running/.test(withoutSandboxes.output()), { timeoutMs: 90_000, intervalMs: 500, onTimeout: "return" });
      expect(withoutSandboxes.output()).not.toMatch(/sandboxes: /);
      const threeDs = await request(`http://127.0.0.1:${withoutSandboxes.port}/sandbox/threeds/auth`, { method: "POST", body: "{}" });
      expect(threeDs.status).toBe(404);
      expect(await threeDs.text()).toBe("no 3-D Secure sandbox runs in this service");
    } finally {
      await withoutSandboxes.stop();
      rmSync(secondDataDir, { recursive: true, force: true });
    }
  }, 400_000);
});

// Issue 27, "Done when": a production start (PostgreSQL, no sandbox standing in for an acquirer's
// production endpoint) serves test-mode payments end to end in Chromium through the built-in
// sandboxes, and live-mode payments only through the merchant's live accounts, at the acquirer's
// production endpoint (CLEARHAUS_BASE_URL: here a recording stand-in in front of a Clearhaus
// sandbox of this test process, so every call that reaches "production" is seen).
describe("test mode and live mode on a production start", () => {
  /** A Luhn-valid Visa number that is no published test card. */
  const REAL_LOOKING_CARD = "4571999900000120";
  const NEXT_YEAR = String(new Date().getUTCFullYear() + 1).slice(2);

  it("test mode pays through the sandboxes in Chromium; live mode only through a live account, and refuses test cards", async () => {
    const { startSandboxes } = await import("@/lib/sandboxes/acquirers/start-sandboxes");
    const { launchChromium, payOnShopPage } = await import("@/tests/helpers/chromium");
    const { accountsAddArgs } = await import("@/tests/helpers/acquirer-accounts");
    const http = await import("node:http");
    // With its extensions: the stand-in for a production endpoint approves a real-looking card (the
    // strict Clearhaus sandbox approves only Clearhaus' published test PANs, which live mode refuses).
    const acquirer = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
    const hits: string[] = [];
    const target = new URL(acquirer.urls.clearhaus!);
    const production = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    const shop = http.createServer((req, res) => {
      const script = new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("script") ?? "";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(
        `<!doctype html><html><head><meta charset="utf-8"><title>shop</title></head><body>` +
          `<div id="pan"></div><div id="expmonth"></div><div id="expyear"></div><div id="securitycode"></div><div id="challenge"></div>` +
          `<button id="pay">Pay</button><script src="${script.replace(/"/g, "")}" referrerpolicy="origin"></script>` +
          `<script>var events = window.cpsEvents = []; var callbacks = {};` +
          `["jsinitsuccess","jspaymentsuccess","jspaymentfailed","jspaymenttimeout","jsfieldloaderror"].forEach(function(n){ callbacks[n] = function(p){ events.push({ name: n, payload: p }); }; });` +
          `initDynamic(callbacks); document.getElementById("pay").addEventListener("click", function(){ goPay(); });</script></body></html>`,
      );
    });
    await Promise.all([production, shop].map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))));
    const port = (server: import("node:http").Server) => (server.address() as import("node:net").AddressInfo).port;
    const productionEndpoint = { CLEARHAUS_BASE_URL: `http://127.0.0.1:${port(production)}` };
    const secondDataDir = mkdtempSync(path.join(tmpdir(), "cps-prod-data-"));
    const modes = await startService({ env: productionEnv(productionEndpoint), dataDir: secondDataDir, waitFor: "healthy", timeoutMs: 240_000 });
    const browser = await launchChromium();
    try {
      const { merchantid, testapikey, liveapikey } = createMerchant();
      expect(testapikey).toMatch(/^cps_test_/);
      expect(liveapikey).toMatch(/^cps_live_/);
      const api = async (apiKey: string, body: Record<string, unknown>) => {
        const response = await request(`${modes.baseUrl}/api/initdynamic`, {
          method: "POST",
          headers: { authorization: `Basic ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ merchantid, currency: "DKK", set3ds: "SKIP_3DS", notificationurl: "https://shop.example/notify", ...body }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const pay = async (apiKey: string, amount: number, pan: string) => {
        const session = await api(apiKey, { amount });
        expect(session.status, JSON.stringify(session.body)).toBe(200);
        const page = await browser.context.newPage();
        await page.goto(`http://127.0.0.1:${port(shop)}/?script=${encodeURIComponent(String(session.body.dfurlscriptinclude))}`);
        const events = await payOnShopPage(page, { pan, expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" }, { typingDelayMs: 5 });
        await page.close();
        return events.at(-1)!;
      };
      const payment = async (paymentid: unknown) =>
        (
          await query<{ mode: string; status: string; account_mode: string | null; processor: string | null }>(
            `SELECT p.mode, p.status, a.mode AS account_mode, p.processor FROM "Payment" p LEFT JOIN "AcquirerAccount" a ON a.id = p."acquirerAccountId" WHERE p.id = $1`,
            [paymentid],
          )
        )[0];

      // Test mode: no account set up; the built-in sandbox's test account takes the test card.
      const testPaid = await pay(testapikey, 1500, "4111111111111111");
      expect(testPaid.name, JSON.stringify(testPaid)).toBe("jspaymentsuccess");
      expect(await payment(testPaid.payload.paymentid)).toMatchObject({ mode: "test", status: "AUTHORIZED", account_mode: "test" });
      // A real card is refused in test mode, and the fields say why.
      const realInTest = await pay(testapikey, 1600, REAL_LOOKING_CARD);
      expect(realInTest).toMatchObject({ name: "jspaymentfailed", payload: { errorcode: "TEST_CARD_REQUIRED" } });
      expect(hits).toEqual([]);

      // Live mode: without a live account nothing is routed (never to the sandboxes).
      const refused = await api(liveapikey, { amount: 1700 });
      expect(refused).toMatchObject({ status: 400, body: { error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/live acquirer account/) } });
      // The operator adds the merchant's live Clearhaus account (its calls go to CLEARHAUS_BASE_URL).
      cli([...accountsAddArgs(merchantid, "clearhaus"), "--mode", "live"], productionEndpoint);
      const livePaid = await pay(liveapikey, 1800, REAL_LOOKING_CARD);
      expect(livePaid.name, JSON.stringify(livePaid)).toBe("jspaymentsuccess");
      expect(await payment(livePaid.payload.paymentid)).toMatchObject({ mode: "live", status: "AUTHORIZED", account_mode: "live", processor: "clearhaus" });
      expect(hits.length).toBeGreaterThan(0);
      // A published test card in live mode: declined before any acquirer call (no authorization is
      // sent; background look-ups of the live payment above may still reach the endpoint).
      const authorizations = () => hits.filter((hit) => hit.startsWith("POST /authorizations")).length;
      const before = authorizations();
      expect(before).toBe(1);
      const testCardInLive = await pay(liveapikey, 1900, "4111111111111111");
      expect(testCardInLive.name).toBe("jspaymentfailed");
      expect(await payment(testCardInLive.payload.paymentid)).toMatchObject({ mode: "live", status: "DECLINED", processor: null });
      expect(authorizations()).toBe(before);
      // The start log names no key of either mode.
      expect(modes.output()).not.toMatch(/cps_(?:test_|live_)?[0-9A-Za-z]{7}/);
    } finally {
      await browser.close();
      await modes.stop();
      await acquirer.close();
      production.close();
      shop.close();
      rmSync(secondDataDir, { recursive: true, force: true });
    }
  }, 600_000);
});
