// CI check of the production build as an operator runs it (issue 12, docs/operations.md): two web
// processes and two workers started at the same moment on an empty database (all four must come up),
// then two web processes and one worker, started with `node dist/start.js` (NODE_ENV=production, secrets,
// PostgreSQL), behind a small load balancer that sends traffic only to ready web processes. A short
// mixed load runs: cardholder payments in Chromium through the hosted fields, then capture and
// refund over the merchant API. Mid-load one web process and the worker get SIGTERM and a new
// worker starts. Passes when every operation completed exactly once and was notified, each stopped
// process answered readiness 503 before it exited, and each exited 0 within its bound.
//
// Needs: `npm run build` done (and current: refused otherwise), TEST_DATABASE_URL (a PostgreSQL role
// that may create databases), Chromium. Ports CLUSTER_PORT_BASE (default 3470) to +9. Run: npx tsx tests/ops/production-cluster.ts
// Prints "production cluster: passed" or the failures, exits 0 or 1.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Page } from "@playwright/test";
import { checkProductionBuild } from "../../scripts/build/freshness.mjs";
import { launchChromium, payOnShopPage } from "../helpers/chromium";
import { eventually } from "../helpers/eventually";
import { readJsonObject } from "../helpers/json-body";
import { sandboxAccountInput } from "../../lib/sandboxes/sandbox-merchant-accounts";

const PORT_BASE = Number(process.env.CLUSTER_PORT_BASE ?? 3470);
const PORTS = { lb: PORT_BASE, web1: PORT_BASE + 1, web2: PORT_BASE + 2, worker1: PORT_BASE + 3, worker2: PORT_BASE + 4, worker0: PORT_BASE + 9 };
const SANDBOX_PORTS = { finaro: PORT_BASE + 5, clearhaus: PORT_BASE + 6, bambora: PORT_BASE + 7, threeds: PORT_BASE + 8 };
const PAYMENTS = Number(process.env.CLUSTER_PAYMENTS ?? 6);
const PARALLEL = 2;
const SHUTDOWN_TIMEOUT_MS = 20_000;
const SHUTDOWN_DRAIN_MS = 2_000;
/** The launcher's own bound: the server's SHUTDOWN_TIMEOUT_MS plus its 5 s (scripts/start.ts). */
const EXIT_BOUND_MS = SHUTDOWN_TIMEOUT_MS + 5_000;
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1).slice(2);

const failures: string[] = [];
const check = (ok: boolean, message: string) => {
  if (!ok) failures.push(message);
};
const log = (line: string) => console.log(`[cluster ${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const startedAt = Date.now();
const work = mkdtempSync(path.join(os.tmpdir(), "cps-cluster-"));

// ---------------------------------------------------------------- processes
interface ServiceProcess {
  name: string;
  port: number;
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** When readiness was first seen answering 503 after SIGTERM. */
  first503At?: number;
  sigtermAt?: number;
}

/** Every process this script started: the watchdog stops their groups, whatever the script was waiting for. */
const started: ServiceProcess[] = [];
/** What the script is doing now (logged as it changes, named by the watchdog). */
let phase = "starting";
const enter = (next: string) => {
  phase = next;
  log(next);
};

function startProcess(name: string, command: string[], env: NodeJS.ProcessEnv, port: number): ServiceProcess {
  const out = createWriteStream(path.join(work, `${name}.log`));
  // Its own process group, so that stopping it stops only what it started.
  const child = spawn(process.execPath, command, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const service = { name, port, child, exit };
  started.push(service);
  return service;
}

/**
 * The readiness answer's status, or undefined without one within 2 s. A plain request with a timer
 * that destroys it: one CI run waited 8 minutes on a readiness fetch whose AbortSignal.timeout never
 * ended it (the processes it asked were ready), so nothing here relies on a signal.
 */
function readiness(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/api/health/ready", agent: false }, (response) => {
      response.resume();
      response.once("end", () => done(response.statusCode));
      response.once("error", () => done(undefined));
    });
    const timer = setTimeout(() => {
      request.destroy();
      done(undefined);
    }, 2_000);
    request.once("error", () => done(undefined));
    function done(status: number | undefined) {
      clearTimeout(timer);
      resolve(status);
    }
  });
}

async function waitReady(service: ServiceProcess, timeoutMs = 180_000): Promise<void> {
  await eventually(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`${service.name} exited with ${service.child.exitCode} while starting (${work}/${service.name}.log)`);
      return (await readiness(service.port)) === 200;
    },
    { what: `${service.name} to be ready (${work}/${service.name}.log)`, timeoutMs, intervalMs: 250 },
  );
}

/** Polls readiness quickly from SIGTERM on, to see the 503 before the process goes away. */
function watchShutdown(service: ServiceProcess): Promise<void> {
  return (async () => {
    while (service.child.exitCode === null && service.child.signalCode === null) {
      const status = await readiness(service.port);
      if (status === 503 && service.first503At === undefined) service.first503At = Date.now();
      await sleep(50);
    }
  })();
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------- merchant side: receiver, shop page
interface Received {
  path: string;
  webhookId: string;
  body: Record<string, unknown>;
}

async function startReceiver(): Promise<{ base: string; received: Received[]; cert: string; close(): void }> {
  // Production refuses http notification addresses: an https receiver with a throwaway certificate
  // that the service processes trust through NODE_EXTRA_CA_CERTS.
  const key = path.join(work, "receiver-key.pem");
  const cert = path.join(work, "receiver-cert.pem");
  const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  if (made.status !== 0) throw new Error("openssl could not make the receiver's certificate");
  const received: Received[] = [];
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, async (req, res) => {
    const body = await readJsonObject(req);
    received.push({ path: req.url ?? "/", webhookId: String(req.headers["webhook-id"] ?? ""), body });
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, received, cert, close: () => server.close() };
}

/** The merchant's checkout page, on another origin (localhost) than the fields (127.0.0.1). */
async function startShop(): Promise<{ base: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const script = url.searchParams.get("script") ?? "";
    const html =
      `<!doctype html><html><head><meta charset="utf-8"><title>shop</title></head><body>` +
      `<div id="pan"></div><div id="expmonth"></div><div id="expyear"></div><div id="securitycode"></div>` +
      `<div id="challenge"></div><button id="pay">Pay</button>` +
      `<script src="${script.replace(/"/g, "")}" referrerpolicy="origin"></script>` +
      `<script>var events = window.cpsEvents = []; var callbacks = {};` +
      `["jsinitsuccess","jspaymentstarted","jspaymentsuccess","jspaymentfailed","jspaymenttimeout","jsfieldloaderror"].forEach(function(n){ callbacks[n] = function(p){ events.push({ name: n, payload: p }); }; });` +
      `initDynamic(callbacks); document.getElementById("pay").addEventListener("click", function(){ goPay(); });</script></body></html>`;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://localhost:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

// ---------------------------------------------------------------- load balancer
/** Round robin over the web processes whose readiness answers 200 (checked every 100 ms). */
async function startLoadBalancer(backends: () => ServiceProcess[]): Promise<{ close(): void; errors(): number }> {
  const ready = new Set<number>();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      await Promise.all(
        backends().map(async (backend) => {
          if ((await readiness(backend.port)) === 200) ready.add(backend.port);
          else ready.delete(backend.port);
        }),
      );
      await sleep(100);
    }
  })();
  let next = 0;
  let errors = 0;
  const server = http.createServer((req, res) => {
    const ports = [...ready];
    if (ports.length === 0) {
      errors++;
      res.writeHead(503).end("no ready backend");
      return;
    }
    const port = ports[next++ % ports.length]!;
    const upstream = http.request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      errors++;
      if (!res.headersSent) res.writeHead(502).end("backend error");
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(PORTS.lb, "127.0.0.1", resolve));
  return {
    /** Requests that found no ready backend or whose backend failed them (a stopping process must cause none). */
    errors: () => errors,
    close() {
      stopped = true;
      server.close();
      server.closeAllConnections();
    },
  };
}

// ---------------------------------------------------------------- the load
interface PaymentRecord {
  index: number;
  paymentId?: string;
  captureResponseId?: string;
  refundResponseId?: string;
  error?: string;
}

async function api(apiKey: string, pathName: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`http://127.0.0.1:${PORTS.lb}${pathName}`, {
      method: "POST",
      headers: { authorization: `Basic ${apiKey}`, "content-type": "application/json", "idempotency-key": `${pathName}-${JSON.stringify(body).length}-${body.reference ?? body.notificationurl}` },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    // A request cut off by a stopping backend (502) is sent again with the same Idempotency-Key.
    if ((response.status === 502 || response.status === 503) && attempt < 5) {
      await sleep(500);
      continue;
    }
    if (response.status !== 200) throw new Error(`${pathName}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  }
}

async function cardholderPayment(page: Page, options: { index: number; merchantId: string; apiKey: string; shop: string; notify: string }): Promise<string> {
  const session = await api(options.apiKey, "/api/initdynamic", {
    merchantid: options.merchantId,
    amount: 1000 + options.index,
    currency: "DKK",
    reference: `cluster-${options.index}-${randomBytes(3).toString("hex")}`,
    set3ds: "SKIP_3DS",
    notificationurl: `${options.notify}/completion-${options.index}`,
  });
  await page.goto(`${options.shop}/?script=${encodeURIComponent(String(session.dfurlscriptinclude))}`);
  const events = await payOnShopPage(page, { pan: "4018810000100036", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" }, { typingDelayMs: 10 });
  const success = events.find((event) => event.name === "jspaymentsuccess");
  if (!success) throw new Error(`payment ${options.index}: ${JSON.stringify(events.at(-1))}`);
  return String(success.payload.paymentid);
}

// ---------------------------------------------------------------- main
async function main(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  // What npm run build made, current: never a stale build, never a build of its own.
  const build = checkProductionBuild();
  if (!build.current) throw new Error(`the production build is not current (${build.reason}): run npm run build first`);

  const databaseName = `cps_cluster_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;

  const processes: ServiceProcess[] = [];
  const closers: (() => void)[] = [];
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  try {
    // Acquirer and 3-D Secure sandboxes in a process of their own, shared by every service process.
    const sandbox = startProcess(
      "sandboxes",
      ["--import", "tsx", "scripts/sandbox.ts", ...Object.entries(SANDBOX_PORTS).flatMap(([name, port]) => [`--${name}`, String(port)])],
      { ...process.env },
      SANDBOX_PORTS.finaro,
    );
    processes.push(sandbox);
    let sandboxOutput = "";
    sandbox.child.stdout!.on("data", (chunk: Buffer) => (sandboxOutput += chunk.toString("utf8")));
    enter("waiting for the sandboxes");
    await eventually(() => sandboxOutput.includes("THREEDS_TEST_API_KEY="), { what: "the sandboxes", timeoutMs: 60_000, intervalMs: 200 });
    const sandboxEnv = Object.fromEntries(
      sandboxOutput
        .split("\n")
        .map((line) => line.match(/^([A-Z0-9_]+)=(.+)$/))
        .filter((match): match is RegExpMatchArray => !!match)
        .map((match) => [match[1]!, match[2]!.trim()])
        // Only where the sandboxes are: their credentials belong to the merchant's acquirer accounts
        // (added below with `accounts add`), and a production start refuses them as variables.
        .filter(([name]) => name!.endsWith("_BASE_URL") || name!.startsWith("THREEDS_")),
    );

    const receiver = await startReceiver();
    closers.push(receiver.close);
    const shop = await startShop();
    closers.push(shop.close);

    const env = (role: string, port: number): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      ROLE: role,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: path.join(work, `data-${port}`),
      DATABASE_URL: databaseUrl.toString(),
      DATABASE_POOL_SIZE: "5",
      PUBLIC_BASE_URL: `http://127.0.0.1:${PORTS.lb}`,
      SESSION_SECRET: secrets.session,
      CARD_DATA_KEY: secrets.card,
      API_KEY_SECRET: secrets.apiKey,
      EGRESS_ALLOWED_NETWORKS: "127.0.0.0/8",
      NODE_EXTRA_CA_CERTS: receiver.cert,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      SHUTDOWN_DRAIN_MS: String(SHUTDOWN_DRAIN_MS),
      ...sandboxEnv,
    });
    const secrets = { session: randomBytes(32).toString("hex"), card: randomBytes(32).toString("base64"), apiKey: randomBytes(32).toString("hex") };

    // Two web and two worker processes started at the same moment on the empty database all come
    // up (they migrate it together: the migration lock covers the history table too). The extra
    // worker then stops, leaving the two web processes and one worker the load runs against.
    const web1 = startProcess("web1", ["dist/start.js"], env("web", PORTS.web1), PORTS.web1);
    const web2 = startProcess("web2", ["dist/start.js"], env("web", PORTS.web2), PORTS.web2);
    const worker1 = startProcess("worker1", ["dist/start.js"], env("worker", PORTS.worker1), PORTS.worker1);
    const worker0 = startProcess("worker0", ["dist/start.js"], env("worker", PORTS.worker0), PORTS.worker0);
    processes.push(web1, web2, worker1, worker0);
    enter("waiting for two web processes and two workers started together on the empty database");
    await Promise.all([waitReady(web1), waitReady(web2), waitReady(worker1), waitReady(worker0)]);
    log("two web processes and two workers started together on the empty database are ready");
    worker0.sigtermAt = Date.now();
    stopGroup(worker0.child, "SIGTERM");
    const worker0Exit = await Promise.race([worker0.exit, sleep(EXIT_BOUND_MS + 5_000).then(() => undefined)]);
    check(worker0Exit?.code === 0, `worker0 exited with ${worker0Exit ? (worker0Exit.code ?? worker0Exit.signal) : "nothing (still running)"} after SIGTERM`);
    const webs = [web1, web2];
    const balancer = await startLoadBalancer(() => webs);
    closers.push(balancer.close);

    enter("creating the merchant and its acquirer accounts with dist/cli.js");
    const merchant = spawnSync(process.execPath, ["dist/cli.js", "merchant", "create", "--name", "Cluster shop", "--json"], { env: env("all", PORTS.lb), encoding: "utf8" });
    if (merchant.status !== 0) throw new Error(`dist/cli.js merchant create: ${merchant.stderr}`);
    // Test mode (issue 27): the sandboxes are test endpoints (*_TEST_BASE_URL) and take test cards only.
    const { merchantid: merchantId, testapikey: apiKey } = JSON.parse(merchant.stdout) as { merchantid: string; testapikey: string };
    // Its test acquirer accounts, as an operator adds them (here: the sandboxes' first test accounts).
    for (const processor of ["finaro", "clearhaus", "bambora"] as const) {
      // currencies: "any" at finaro and clearhaus; the one currency of the Bambora North America account.
      const input = sandboxAccountInput(processor) as { acquirerMerchantId: string; currencies: string; credentials: Record<string, string> };
      // The credentials on standard input (the CLI refuses secrets on its command line).
      const credentials = ["--credentials-file", "-"];
      const fields = ["--acquirer-merchant-id", input.acquirerMerchantId, "--mcc", "5999", "--merchant-name", "Cluster shop", "--country", "DK"];
      const args = ["dist/cli.js", "accounts", "add", "--merchant", merchantId, "--processor", processor, "--name", processor, "--mode", "test", ...fields];
      const added = spawnSync(process.execPath, [...args, "--descriptor", "Cluster shop", "--currencies", input.currencies, ...credentials], { env: env("all", PORTS.lb), encoding: "utf8", input: JSON.stringify(input.credentials) });
      if (added.status !== 0) throw new Error(`dist/cli.js accounts add ${processor}: ${added.stderr}`);
    }

    enter("starting Chromium and the load");
    browser = await launchChromium();
    const records: PaymentRecord[] = Array.from({ length: PAYMENTS }, (_, index) => ({ index }));
    let worker2: ServiceProcess | undefined;
    let stopping: Promise<void> | undefined;
    const stopMidLoad = () => {
      if (stopping) return;
      log("SIGTERM to web1 and worker1; starting worker2");
      for (const service of [web1, worker1]) {
        service.sigtermAt = Date.now();
        stopGroup(service.child, "SIGTERM");
      }
      const watching = Promise.all([watchShutdown(web1), watchShutdown(worker1)]);
      worker2 = startProcess("worker2", ["dist/start.js"], env("worker", PORTS.worker2), PORTS.worker2);
      processes.push(worker2);
      stopping = watching.then(() => waitReady(worker2!)).then(() => log("worker2 is ready"));
    };

    const runOne = async (record: PaymentRecord, page: Page) => {
      try {
        record.paymentId = await cardholderPayment(page, { index: record.index, merchantId, apiKey, shop: shop.base, notify: receiver.base });
        const capture = await api(apiKey, `/api/${record.paymentId}/capture`, { amount: 1000 + record.index, notificationurl: `${receiver.base}/capture-${record.index}` });
        record.captureResponseId = String(capture.responseid);
        // Mid-load: a capture was just accepted and other payments are under way.
        if (record.index === 1) stopMidLoad();
        await eventually(() => receiver.received.find((item) => item.path === `/capture-${record.index}`), { what: `capture notification ${record.index}`, timeoutMs: 120_000, intervalMs: 200 });
        const refund = await api(apiKey, `/api/${record.paymentId}/refund`, { amount: 1000 + record.index, notificationurl: `${receiver.base}/refund-${record.index}` });
        record.refundResponseId = String(refund.responseid);
        await eventually(() => receiver.received.find((item) => item.path === `/refund-${record.index}`), { what: `refund notification ${record.index}`, timeoutMs: 120_000, intervalMs: 200 });
        log(`payment ${record.index} (${record.paymentId}): authorized, captured, refunded`);
      } catch (error) {
        record.error = error instanceof Error ? error.message : String(error);
        log(`payment ${record.index} failed: ${record.error}`);
      }
    };
    let cursor = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const page = await browser!.context.newPage();
        while (cursor < records.length) await runOne(records[cursor++]!, page);
        await page.close();
      }),
    );
    if (!stopping) stopMidLoad();
    await stopping;

    // ---- checks: the stopped processes
    for (const service of [web1, worker1]) {
      const exit = await Promise.race([service.exit, sleep(EXIT_BOUND_MS + 5_000).then(() => undefined)]);
      if (!exit) {
        failures.push(`${service.name} did not exit`);
        continue;
      }
      const took = exit.at - service.sigtermAt!;
      log(`${service.name}: exit code ${exit.code}, ${took} ms after SIGTERM, readiness 503 ${service.first503At ? `${exit.at - service.first503At} ms before exit` : "never seen"}`);
      // What the process said while it stopped (lib/runtime/graceful-shutdown.ts).
      for (const line of readFileSync(path.join(work, `${service.name}.log`), "utf8").split("\n")) if (line.includes("[shutdown]")) log(`  ${service.name} ${line.trim()}`);
      check(exit.code === 0, `${service.name} exited with ${exit.code ?? exit.signal}, not 0`);
      check(took <= EXIT_BOUND_MS, `${service.name} took ${took} ms to exit (bound ${EXIT_BOUND_MS} ms)`);
      check(service.first503At !== undefined && service.first503At < exit.at, `${service.name}: readiness never answered 503 before the exit`);
    }

    check(balancer.errors() === 0, `${balancer.errors()} request(s) through the load balancer failed at a backend (cut off by a stopping process?)`);

    // ---- checks: every operation exactly once, and notified
    for (const record of records) check(!record.error, `payment ${record.index}: ${record.error}`);
    const db = new pg.Client({ connectionString: databaseUrl.toString() });
    await db.connect();
    try {
      // A receiver can have a notification a moment before the worker records its delivery: wait
      // (up to 60 s) until no background run is left unfinished.
      await eventually(
        async () => {
          const open = await db.query<{ count: string }>(`SELECT count(*) FROM "InngestRun" WHERE status NOT IN ('completed', 'failed')`);
          const pending = await db.query<{ count: string }>(`SELECT count(*) FROM "Notification" WHERE status = 'pending'`);
          return open.rows[0]!.count === "0" && pending.rows[0]!.count === "0";
        },
        // The checks below say what is left unfinished after the 60 s.
        { timeoutMs: 60_000, intervalMs: 500, onTimeout: "return" },
      );
      for (const record of records.filter((r) => r.paymentId)) {
        const operations = await db.query<{ type: string; status: string; count: string }>(
          `SELECT type, status, count(*) FROM "Operation" WHERE "paymentId" = $1 GROUP BY type, status ORDER BY type, status`,
          [record.paymentId],
        );
        const summary = operations.rows.map((row) => `${row.type}:${row.status}:${row.count}`).join(" ");
        check(summary === "authorize:approved:1 capture:approved:1 refund:approved:1", `payment ${record.index}: operations ${summary}`);
        const notifications = await db.query<{ kind: string; status: string; count: string }>(
          `SELECT kind, status, count(*) FROM "Notification" WHERE "paymentId" = $1 GROUP BY kind, status ORDER BY kind, status`,
          [record.paymentId],
        );
        const sent = notifications.rows.map((row) => `${row.kind}:${row.status}:${row.count}`).join(" ");
        check(sent === "completion:delivered:1 capture:delivered:1 refund:delivered:1", `payment ${record.index}: notifications ${sent}`);
        for (const tag of ["completion", "capture", "refund"]) {
          const got = receiver.received.filter((item) => item.path === `/${tag}-${record.index}`);
          const ids = new Set(got.map((item) => item.webhookId));
          check(ids.size === 1, `payment ${record.index}: ${ids.size} different ${tag} notifications received`);
          if (got.length > ids.size) log(`payment ${record.index}: ${tag} notification delivered ${got.length} times (same webhook-id)`);
        }
      }
      const runs = await db.query<{ status: string; count: string }>(`SELECT status, count(*) FROM "InngestRun" GROUP BY status ORDER BY status`);
      log(`background runs: ${runs.rows.map((row) => `${row.status} ${row.count}`).join(", ")}`);
      check(!runs.rows.some((row) => row.status === "failed"), "some background runs failed");
    } finally {
      await db.end();
    }

    // ---- the rest stop as cleanly
    const rest = [web2, worker2!];
    for (const service of rest) {
      service.sigtermAt = Date.now();
      stopGroup(service.child, "SIGTERM");
    }
    for (const service of rest) {
      const exit = await Promise.race([service.exit, sleep(EXIT_BOUND_MS + 5_000).then(() => undefined)]);
      check(exit?.code === 0, `${service.name} exited with ${exit ? (exit.code ?? exit.signal) : "nothing (still running)"} after SIGTERM`);
    }
  } finally {
    await browser?.close().catch(() => {});
    for (const close of closers) close();
    for (const service of processes) stopGroup(service.child, "SIGKILL");
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

// The script's own bound, inside CI's `timeout 480`: whatever it waits for, it names it, stops every
// process group it started and fails, instead of being killed silently with its processes left running.
const DEADLINE_MS = Number(process.env.CLUSTER_DEADLINE_MS ?? 420_000);
setTimeout(() => {
  console.log(`production cluster: FAILED (logs in ${work})\n  - no end after ${DEADLINE_MS / 1000} s, while ${phase}`);
  for (const service of started) {
    console.log(`  ${service.name}: ${service.child.exitCode === null && service.child.signalCode === null ? "running" : `exited ${service.child.exitCode ?? service.child.signalCode}`}`);
    stopGroup(service.child, "SIGKILL");
  }
  process.exit(1);
}, DEADLINE_MS).unref();

main()
  .catch((error: unknown) => failures.push(error instanceof Error ? error.message : String(error)))
  .finally(() => {
    if (failures.length === 0) {
      console.log(`production cluster: passed (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`);
      if (!process.env.CLUSTER_KEEP_LOGS) rmSync(work, { recursive: true, force: true });
      process.exit(0);
    }
    console.log(`production cluster: FAILED (logs in ${work})\n${failures.map((failure) => `  - ${failure}`).join("\n")}`);
    process.exit(1);
  });
