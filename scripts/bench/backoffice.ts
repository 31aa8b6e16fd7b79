// Benchmark of the back office's payments list at a million payments (npm run bench -- backoffice):
// seeds 1,000,000 payments of one merchant (plus 200,000 of another, and 20,000 stored cards) with
// one INSERT ... SELECT generate_series, then times the queries the payments page runs
// (lib/backoffice/queries/list-payments.ts: first page, a deep keyset page, every filter, every
// kind of search, one CSV batch) and prints each plan's top node so a sequential scan shows up.
// Then the same pages over HTTP from a production build (`next start` on 127.0.0.1, signed in).
// Targets (issue 7): every list and search query p95 < 50 ms, every list and search page p95 < 250 ms,
// on PostgreSQL at 1M payments. BENCH_HTTP=0 skips the HTTP part (it needs a production build in
// BENCH_NEXT_DIST_DIR, default .next-bench-backoffice, made with `next build` when missing).
// Uses BENCH_DATABASE_URL (a server where it may create a database), else a throwaway cluster from
// scripts/pg-test-cluster.sh. Knobs: BENCH_PAYMENTS (1000000), BENCH_RUNS (30), BENCH_KEEP_DATABASE (keep the
// seeded database for EXPLAIN afterwards).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";
import { buildIfMissing } from "./build-if-missing";
import { benchAdminUrl, dropBenchDatabase, migratedBenchDatabase } from "./lib/bench-database";
import { SERVICE_NODE_FLAGS } from "../../lib/runtime/service-node-flags";

const require = createRequire(import.meta.url);
const NEXT_BIN = require.resolve("next/dist/bin/next");
const HTTP_PORT = Number(process.env.BENCH_PORT ?? 3960);
const DIST_DIR = process.env.BENCH_NEXT_DIST_DIR || ".next-bench-backoffice";
/** Whole pages over HTTP (session cookie, server rendering included). */
const PAGE_TARGET_P95_MS = 250;
/** The overview aggregates 30 days of payments (all 1M of them here): a heavier page. */
const OVERVIEW_TARGET_P95_MS = 1500;

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TARGET_P95_MS = 50;
/** One CSV batch is 1,000 rows, not a page: it has its own target. */
const CSV_BATCH_TARGET_P95_MS = 250;
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");

const log = (line: string) => console.log(`[backoffice bench] ${line}`);

async function seed(url: string): Promise<{ merchantId: string; sample: { id: string; merchantPaymentId: string; reference: string; last4: string } }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const merchantId = "100000000001";
  const otherId = "100000000002";
  for (const id of [merchantId, otherId]) {
    await client.query(`INSERT INTO "Merchant" (id, name, "updatedAt") VALUES ($1, $2, now())`, [id, `Bench ${id}`]);
  }
  const started = Date.now();
  await client.query(`
    INSERT INTO "StoredCard" (id, "merchantId", "panEncrypted", "keyId", "panFingerprint", bin, last4, "expMonth", "expYear", scheme, "updatedAt")
    SELECT 'card' || i, $1, 'x', 'bench', md5('card' || i), '411111', lpad((i % 10000)::text, 4, '0'), 1 + i % 12, 2030,
           (ARRAY['visa','mastercard','amex'])[1 + i % 3], now()
      FROM generate_series(1, 20000) AS i`, [merchantId]);
  const insertPayments = (merchant: string, count: number, prefix: string) =>
    client.query(
      `INSERT INTO "Payment" (id, "merchantId", "merchantPaymentId", "storedCardId", status, amount, currency, "authorizedAmount",
                              "capturedAmount", reference, processor, "paymentType", "createdAt", "updatedAt")
       SELECT md5($3 || i), $1, $3 || 'order' || i, CASE WHEN $1 = $4 THEN 'card' || (1 + i % 20000) END,
              (ARRAY['AUTHORIZED','CAPTURED','CAPTURED','CAPTURED','REFUNDED','DECLINED','FAILED','VOIDED','PENDING'])[1 + i % 9]::"PaymentStatus",
              100 + (i::bigint * 7919) % 500000, (ARRAY['DKK','EUR','SEK'])[1 + i % 3], 0, 0, 'ref-' || $3 || i,
              (ARRAY['finaro','clearhaus','bambora'])[1 + i % 3]::"Processor", 'cit',
              now() - make_interval(secs => i * 2.5), now()
         FROM generate_series(1, $2::int) AS i`,
      [merchant, count, prefix, merchantId],
    );
  await insertPayments(merchantId, PAYMENTS, "a");
  await insertPayments(otherId, Math.round(PAYMENTS / 5), "b");
  await client.query("ANALYZE");
  log(`seeded ${PAYMENTS} + ${Math.round(PAYMENTS / 5)} payments in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const middle = Math.round(PAYMENTS / 2);
  const sample = { id: (await client.query(`SELECT md5('a' || $1::text) AS id`, [middle])).rows[0].id as string, merchantPaymentId: `aorder${middle}`, reference: `ref-a${middle}`, last4: "0042" };
  await client.end();
  return { merchantId, sample };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Timing {
  name: string;
  p50: number;
  p95: number;
  max: number;
  targetMs: number;
}

async function time(name: string, targetMs: number, run: () => Promise<unknown>): Promise<Timing> {
  await run(); // warm-up
  const times: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const result = { name, p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1]!, targetMs };
  log(`${name.padEnd(36)} p50 ${result.p50.toFixed(1).padStart(7)} ms   p95 ${result.p95.toFixed(1).padStart(7)} ms   ${result.p95 <= targetMs ? "ok" : `SLOW (target ${targetMs} ms)`}`);
  return result;
}

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/** Signs in through next-auth's own endpoints, as the browser does; returns the Cookie header. */
async function signInOverHttp(base: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, totp: "", json: "true" }),
  });
  const cookies = [...jar, ...cookiesOf(response)];
  if (!cookies.some((cookie) => cookie.startsWith("next-auth.session-token="))) throw new Error(`sign-in failed: HTTP ${response.status}`);
  return cookies.join("; ");
}

async function waitForServer(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      await fetch(`${base}/backoffice/sign-in`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
  throw new Error("next start did not answer within 120 s");
}

async function benchPages(options: { url: string; merchantId: string; sample: { id: string; merchantPaymentId: string; last4: string }; deepCursor: string }): Promise<Timing[]> {
  buildIfMissing(DIST_DIR, log, { env: { CPS_LOCAL: "1" } });
  const { createUser } = await import("../../lib/users/create-user");
  const password = randomBytes(12).toString("base64url");
  await createUser({ merchantId: options.merchantId, email: "bench@example.com", name: "Bench", password, role: "VIEWER" });
  const base = `http://127.0.0.1:${HTTP_PORT}`;
  const secrets = { SESSION_SECRET: randomBytes(32).toString("hex"), API_KEY_SECRET: process.env.API_KEY_SECRET!, CARD_DATA_KEY: process.env.CARD_DATA_KEY! };
  // With the launcher's flags (scripts/start.ts): what an operator runs.
  const server = spawn(process.execPath, [...SERVICE_NODE_FLAGS, NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(HTTP_PORT)], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...secrets, NEXTAUTH_SECRET: secrets.SESSION_SECRET, NEXTAUTH_URL: `${base}/api/auth`, NODE_ENV: "production", NEXT_DIST_DIR: DIST_DIR, DATABASE_URL: options.url, PUBLIC_BASE_URL: base, CPS_LOCAL: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  try {
    await waitForServer(base, server);
    const cookie = await signInOverHttp(base, "bench@example.com", password);
    const get = (pathAndQuery: string, expected: string) => async () => {
      const response = await fetch(`${base}${pathAndQuery}`, { headers: { cookie } });
      const html = await response.text();
      if (response.status !== 200 || !html.includes(expected)) throw new Error(`GET ${pathAndQuery}: HTTP ${response.status}`);
    };
    const page = (query: string) => get(`/backoffice/payments${query}`, "Payments");
    return [
      await time("page: overview (30 days)", OVERVIEW_TARGET_P95_MS, get("/backoffice", "Approval rate")),
      await time("page: payments, first page", PAGE_TARGET_P95_MS, page("")),
      await time("page: payments, page 2,000", PAGE_TARGET_P95_MS, page(`?after=${options.deepCursor}`)),
      await time("page: filter status+processor", PAGE_TARGET_P95_MS, page("?status=CAPTURED&processor=finaro")),
      await time("page: search paymentid", PAGE_TARGET_P95_MS, page(`?q=${options.sample.id}`)),
      await time("page: search merchantpaymentid", PAGE_TARGET_P95_MS, page(`?q=${options.sample.merchantPaymentId}`)),
      await time("page: search last4", PAGE_TARGET_P95_MS, page(`?q=${options.sample.last4}`)),
    ];
  } finally {
    server.kill("SIGTERM");
  }
}

async function main(): Promise<void> {
  const admin = benchAdminUrl({ defaultPort: "55472", dataDir: "/tmp/cps-bench-backoffice-pg" });
  const { url } = await migratedBenchDatabase(admin, "cps_bench_bo_", {
    CPS_LOCAL: "1",
    DATA_DIR: path.resolve(".data-bench-backoffice"),
    API_KEY_SECRET: randomBytes(32).toString("hex"),
    CARD_DATA_KEY: randomBytes(32).toString("base64"),
    SESSION_SECRET: randomBytes(32).toString("hex"),
  });
  const { merchantId, sample } = await seed(url);
  const { listPayments } = await import("../../lib/backoffice/queries/list-payments");
  const { parsePaymentFilters } = await import("../../lib/backoffice/payment-filters");
  const { exportPaymentsCsv } = await import("../../lib/backoffice/queries/export-payments-csv");
  const { db, disconnectDb } = await import("../../lib/db");

  // A cursor deep in the list: page 2,000 (100,000 payments in; half-way for small runs).
  const deep = await db().payment.findFirstOrThrow({ where: { merchantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: Math.min(100_000, Math.floor(PAYMENTS / 2)), select: { createdAt: true, id: true } });
  const { encodeCursor } = await import("../../lib/backoffice/queries/list-payments");
  const deepCursor = encodeCursor(deep);
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

  const scenarios: { name: string; run: () => Promise<unknown>; targetMs?: number }[] = [
    { name: "list: first page", run: () => listPayments({ merchantId, mode: "test", filters: {} }) },
    { name: "list: page 2,000 (keyset)", run: () => listPayments({ merchantId, mode: "test", filters: {}, after: deepCursor }) },
    { name: "list: newer page from deep", run: () => listPayments({ merchantId, mode: "test", filters: {}, before: deepCursor }) },
    { name: "filter: status DECLINED", run: () => listPayments({ merchantId, mode: "test", filters: parsePaymentFilters({ status: "DECLINED" }).filters }) },
    { name: "filter: processor bambora", run: () => listPayments({ merchantId, mode: "test", filters: parsePaymentFilters({ processor: "bambora" }).filters }) },
    { name: "filter: scheme amex", run: () => listPayments({ merchantId, mode: "test", filters: parsePaymentFilters({ scheme: "amex" }).filters }) },
    { name: "filter: last 7 days", run: () => listPayments({ merchantId, mode: "test", filters: parsePaymentFilters({ from: weekAgo, to: today }).filters }) },
    { name: "filter: amount 100.00-200.00", run: () => listPayments({ merchantId, mode: "test", filters: parsePaymentFilters({ minAmount: "100", maxAmount: "200" }).filters }) },
    { name: "filter: status+processor+scheme", run: () => listPayments({ merchantId, mode: "test", filters: parsePaymentFilters({ status: "CAPTURED", processor: "finaro", scheme: "visa" }).filters }) },
    { name: "search: paymentid", run: () => listPayments({ merchantId, mode: "test", filters: { q: sample.id } }) },
    { name: "search: merchantpaymentid", run: () => listPayments({ merchantId, mode: "test", filters: { q: sample.merchantPaymentId } }) },
    { name: "search: reference", run: () => listPayments({ merchantId, mode: "test", filters: { q: sample.reference } }) },
    { name: "search: last4", run: () => listPayments({ merchantId, mode: "test", filters: { q: sample.last4 } }) },
    { name: "search: no match", run: () => listPayments({ merchantId, mode: "test", filters: { q: "nothing-like-this" } }) },
    {
      name: "csv: first 1,000 rows",
      targetMs: CSV_BATCH_TARGET_P95_MS,
      run: async () => {
        const lines = exportPaymentsCsv({ merchantId, mode: "test", filters: {} });
        await lines.next();
        await lines.next();
        await lines.return(undefined);
      },
    },
  ];

  const results: Timing[] = [];
  for (const scenario of scenarios) results.push(await time(scenario.name, scenario.targetMs ?? TARGET_P95_MS, scenario.run));
  if (process.env.BENCH_HTTP !== "0") results.push(...(await benchPages({ url, merchantId, sample, deepCursor })));
  await disconnectDb();
  if (!process.env.BENCH_KEEP_DATABASE) await dropBenchDatabase(admin, url);
  const failed = results.filter((result) => result.p95 > result.targetMs);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, "backoffice.json"), JSON.stringify({ payments: PAYMENTS, runs: RUNS, targetP95Ms: TARGET_P95_MS, results }, null, 2));
  log(failed.length ? `${failed.length} scenario(s) above their p95 target` : "all scenarios within their p95 targets");
  process.exit(failed.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
