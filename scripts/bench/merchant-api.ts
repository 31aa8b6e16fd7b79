// Benchmark of the merchant API against a production build on PostgreSQL (npm run bench -- merchant-api):
//  - baseline: a bare node:http server doing one INSERT per request into the same database;
//  - POST /api/initdynamic and POST /api/{paymentid}/capture at fixed concurrency (autocannon):
//    requests per second, p50 / p99 latency, and the ratio service / baseline;
//  - capture-to-notification latency: from sending a capture of a sandbox-authorized payment to its
//    notification arriving at a local receiver (embedded executor, in-process acquirer sandbox).
// Targets (issue 5): initdynamic >= 0.5 x baseline RPS, p99 < 50 ms at 50 connections, capture to
// notification p50 < 100 ms. Uses BENCH_DATABASE_URL (a PostgreSQL server where it may create a
// database), else starts a throwaway cluster with scripts/pg-test-cluster.sh.
// Knobs: BENCH_CONNECTIONS (50), BENCH_DURATION_S (10), BENCH_PORT (3950), BENCH_LATENCY_SAMPLES (30).
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import autocannon from "autocannon";
import pg from "pg";

const require = createRequire(import.meta.url);
const NEXT_BIN = require.resolve("next/dist/bin/next");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3950);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 30);
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next-bench-merchant-api";
const DATA_DIR = path.resolve(".data-bench-merchant-api");
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");

const secrets = {
  SESSION_SECRET: randomBytes(32).toString("hex"),
  API_KEY_SECRET: randomBytes(32).toString("hex"),
  CARD_DATA_KEY: randomBytes(32).toString("base64"),
};

function log(line: string): void {
  console.log(`[merchant-api bench] ${line}`);
}

async function adminUrl(): Promise<string> {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  const out = execFileSync("bash", ["scripts/pg-test-cluster.sh", "start"], {
    env: { ...process.env, PG_TEST_PORT: process.env.BENCH_PG_PORT ?? "55462", PG_TEST_DIR: "/tmp/cps-bench-merchant-api-pg" },
  }).toString();
  const match = out.match(/TEST_DATABASE_URL=(\S+)/);
  if (!match?.[1]) throw new Error(`could not start PostgreSQL: ${out}`);
  return match[1];
}

async function createDatabase(admin: string): Promise<string> {
  const name = `cps_bench_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Summary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function load(options: autocannon.Options): Promise<Summary> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function startBaseline(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench_baseline (id text PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const id = randomBytes(16).toString("hex");
    await pool.query(`INSERT INTO bench_baseline (id, body) VALUES ($1, $2)`, [id, Buffer.concat(chunks).toString("utf8")]);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ responseid: id }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { responseid?: string };
      if (body.responseid) arrivals.set(body.responseid, performance.now());
    } catch {
      // not JSON: ignored
    }
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("the server did not become healthy");
}

/** A stored payment with the sandbox's always-approved Visa card, to charge with MIT. */
async function createStoredPayment(merchantId: string): Promise<string> {
  const { encryptPan, panFingerprint } = await import("../../lib/cards/card-encryption");
  const { db } = await import("../../lib/db");
  const { newId } = await import("../../lib/ids");
  const pan = "4111111111111111";
  const storedCardId = newId();
  await db().storedCard.create({
    data: {
      id: storedCardId,
      merchantId,
      ...encryptPan(pan),
      panFingerprint: panFingerprint(pan),
      bin: "411111",
      last4: "1111",
      expMonth: 12,
      expYear: 2030,
      scheme: "visa",
    },
  });
  const paymentId = newId();
  await db().payment.create({
    data: { id: paymentId, merchantId, storedCardId, status: "CAPTURED", amount: 100n, currency: "DKK", processor: "clearhaus" },
  });
  return paymentId;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  const admin = await adminUrl();
  const databaseUrl = await createDatabase(admin);
  Object.assign(process.env, secrets, { DATABASE_URL: databaseUrl, DATA_DIR, CPS_LOCAL: "1" });
  const { resetConfig } = await import("../../lib/env");
  resetConfig();
  const { migrateDatabase } = await import("../../lib/db/migrations");
  await migrateDatabase(databaseUrl);
  log(`database ${new URL(databaseUrl).pathname.slice(1)} migrated`);

  if (!existsSync(path.join(DIST_DIR, "BUILD_ID")) || process.env.BENCH_REBUILD) {
    log(`building into ${DIST_DIR} (next build)...`);
    const build = spawnSync(process.execPath, [NEXT_BIN, "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) throw new Error("next build failed");
  }

  const receiver = await startReceiver();
  const { db, disconnectDb } = await import("../../lib/db");
  const { createMerchant } = await import("../../lib/merchants/create-merchant");
  const { merchant, apiKey } = await createMerchant({ name: "Bench Shop", withApiKey: true });
  await db().merchant.update({ where: { id: merchant.id }, data: { defaultNotificationUrl: receiver.url } });

  const base = `http://127.0.0.1:${PORT}`;
  const server = spawn(process.execPath, [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: DIST_DIR,
      PORT: String(PORT),
      PUBLIC_BASE_URL: base,
      NEXT_TELEMETRY_DISABLED: "1",
      // Throughput is measured, not the per-key limit (one key makes every request); logs as in production.
      RATE_LIMIT_API_PER_SECOND: "0",
      LOG_FORMAT: "json",
    },
  });
  const report: Record<string, unknown> = {
    connections: CONNECTIONS,
    durationSeconds: DURATION_S,
    database: "PostgreSQL",
    build: DIST_DIR,
  };
  const baseline = await startBaseline(databaseUrl);
  try {
    await waitForHealth(base, server);
    const headers = { "content-type": "application/json", authorization: `Basic ${apiKey}` };
    const initBody = JSON.stringify({
      merchantid: merchant.id,
      amount: 12500,
      currency: "DKK",
      reference: "Bench order",
      notificationurl: receiver.url,
    });

    log("warming up");
    await autocannon({ url: `${base}/api/initdynamic`, method: "POST", headers, body: initBody, connections: 4, amount: 200 });

    log(`baseline: node:http + one INSERT, ${CONNECTIONS} connections, ${DURATION_S} s`);
    report.baseline = await load({ url: baseline.url, method: "POST", headers: { "content-type": "application/json" }, body: initBody });

    log("POST /api/initdynamic");
    report.initdynamic = await load({ url: `${base}/api/initdynamic`, method: "POST", headers, body: initBody });

    // Payments to capture: authorized with a large amount, so that 1-unit captures never run out.
    const paymentCount = 2000;
    const { newId } = await import("../../lib/ids");
    const paymentIds = Array.from({ length: paymentCount }, () => newId());
    await db().payment.createMany({
      data: paymentIds.map((id) => ({
        id,
        merchantId: merchant.id,
        status: "AUTHORIZED" as const,
        amount: 999_999_999n,
        authorizedAmount: 999_999_999n,
        currency: "DKK",
        processor: "clearhaus" as const,
      })),
    });
    let next = 0;
    log("POST /api/{paymentid}/capture");
    report.capture = await load({
      url: base,
      requests: [
        {
          method: "POST",
          headers,
          body: JSON.stringify({ amount: 1 }),
          setupRequest: (request) => ({ ...request, path: `/api/${paymentIds[next++ % paymentCount]}/capture` }),
        },
      ],
    });

    // Capture to notification: one at a time, on payments the sandbox really authorized (via MIT).
    log(`capture to notification, ${LATENCY_SAMPLES} samples`);
    const parentId = await createStoredPayment(merchant.id);
    const authorized: string[] = [];
    for (let index = 0; index < LATENCY_SAMPLES; index++) {
      const response = await fetch(`${base}/api/mit`, {
        method: "POST",
        headers,
        body: JSON.stringify({ merchantid: merchant.id, paymentid: parentId, amount: 1000, currency: "DKK", paymenttype: "unscheduled" }),
      });
      const { responseid } = (await response.json()) as { responseid: string };
      authorized.push(responseid);
    }
    const deadline = Date.now() + 60_000;
    while (authorized.some((id) => !receiver.arrivals.has(id)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const mitPayments = await db().payment.findMany({ where: { parentPaymentId: parentId, status: "AUTHORIZED" }, select: { id: true } });
    const latencies: number[] = [];
    for (const { id } of mitPayments.slice(0, LATENCY_SAMPLES)) {
      const started = performance.now();
      const response = await fetch(`${base}/api/${id}/capture`, { method: "POST", headers, body: "{}" });
      const { responseid } = (await response.json()) as { responseid: string };
      const waitUntil = Date.now() + 10_000;
      while (!receiver.arrivals.has(responseid) && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 1));
      const arrived = receiver.arrivals.get(responseid);
      if (arrived !== undefined) latencies.push(arrived - started);
    }
    report.captureToNotification = {
      samples: latencies.length,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      maxMs: Math.round(Math.max(...latencies)),
    };

    const init = report.initdynamic as Summary;
    const capture = report.capture as Summary;
    const bare = report.baseline as Summary;
    report.ratios = {
      initdynamicToBaseline: Number((init.requestsPerSecond / bare.requestsPerSecond).toFixed(2)),
      captureToBaseline: Number((capture.requestsPerSecond / bare.requestsPerSecond).toFixed(2)),
    };
    report.targets = {
      "initdynamic >= 0.5 x baseline": init.requestsPerSecond >= 0.5 * bare.requestsPerSecond,
      "initdynamic p99 < 50 ms": init.p99Ms < 50,
      "capture p99 < 50 ms": capture.p99Ms < 50,
      "capture to notification p50 < 100 ms": (report.captureToNotification as { p50Ms: number }).p50Ms < 100,
    };
  } finally {
    server.kill("SIGTERM");
    await baseline.close();
    await receiver.close();
    await disconnectDb();
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, "merchant-api.json"), JSON.stringify(report, null, 2));
  console.log(JSON.stringify(report, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
