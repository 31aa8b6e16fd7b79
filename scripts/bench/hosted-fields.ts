// npm run bench -- hosted-fields: what a cardholder's browser downloads for the hosted fields and
// how long a payment takes, against the real service (scripts/start.ts: production build, embedded
// database, sandbox acquirers) on 127.0.0.1.
//  1. Size, over HTTP with `accept-encoding: gzip`, exactly as served: dynamic.js and every frame
//     page, plus every script a page loads from /_cps/ (content-hashed, cached for a year); the
//     "first load" of a page counts the page and its scripts as if nothing were cached yet.
//  2. Cache headers: immutable for /_cps/ files, no-store for everything per session.
//  3. A cardholder payment in Chromium (Debian's, /usr/bin/chromium): the demo shop page, a card
//     typed into the fields, then goPay() to jspaymentsuccess, timed inside the page, N times
//     (BENCH_PAYMENTS, default 30) with the sandbox acquirer. In the same run, the floor: one
//     fetch from the same page to a static file of the same server (a bare HTTP round trip through Next).
//     The requests the browser makes between goPay() and success are listed with their durations.
// Targets (issue 14): dynamic.js and each field page's first load under 8 KB gzip, content-hashed
// parts immutable, payment p50 under 150 ms. Results go to bench-results/hosted-fields.json.
// The service is started in its own process group and stopped by that group only.
// BENCH_PAYMENTS, BENCH_PORT, BENCH_DATA_DIR, NEXT_DIST_DIR (default .next-bench), CHROMIUM_PATH, and
// BENCH_CPU_PROF=<dir> for CPU profiles of the service's processes (the times are then not comparable).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../chromium";

const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 30);
const DIST_DIR = process.env.NEXT_DIST_DIR ?? ".next-bench";
const DATA_DIR = process.env.BENCH_DATA_DIR ?? ".data-bench-hosted-fields";
const PROFILE_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
const TARGET = { gzipBytes: 8 * 1024, paymentP50Ms: 150 } as const;
const IMMUTABLE = "public, max-age=31536000, immutable";
const FIELD_PAGES = ["pan", "expmonth", "expyear", "securitycode", "ccsingle"] as const;

interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Bytes on the wire (gzip when the server compressed). */
  wire: number;
  body: string;
}

/** A GET with gzip allowed and nothing decoded for us, so the wire size is what the browser gets. */
function get(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { "accept-encoding": "gzip", ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const raw = Buffer.concat(chunks);
        const gzipped = response.headers["content-encoding"] === "gzip";
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          wire: raw.length,
          body: (gzipped ? gunzipSync(raw) : raw).toString("utf8"),
        });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startService(port: number): Promise<ChildProcess> {
  rmSync(DATA_DIR, { recursive: true, force: true });
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR,
      NEXT_DIST_DIR: DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
      // BENCH_CPU_PROF=<dir>: every process of the service (the launcher with the embedded database,
      // the Next server) profiles itself and writes a V8 CPU profile there before it is stopped.
      ...(PROFILE_DIR
        ? {
            NODE_OPTIONS: `--import ${pathToFileURL(path.resolve("scripts/bench/cpu-profile-hook.mjs")).href}`,
            CPS_CPU_PROFILE_DIR: PROFILE_DIR,
          }
        : {}),
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${output.slice(-3000)}`);
    try {
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (health.status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the service did not become healthy:\n${output.slice(-3000)}`);
}

async function stopService(child: ChildProcess): Promise<void> {
  if (PROFILE_DIR && child.pid !== undefined && child.exitCode === null) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    process.kill(-child.pid, "SIGUSR2"); // scripts/bench/cpu-profile-hook.mjs writes the profiles
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    process.kill(-child.pid, "SIGTERM");
  });
}

interface SizeRow {
  name: string;
  /** The document itself, gzip on the wire. */
  document: number;
  /** The /_cps/ scripts it loads (gzip on the wire). */
  assets: number;
  /** Document plus assets: a first visit with an empty cache. */
  firstLoad: number;
  cacheControl: string;
  assetCacheControl: string[];
}

/** The merchant's notification endpoint: answers 200 to everything. */
async function startReceiver(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200).end("ok"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/notify`, close: () => server.close() };
}

async function initSession(base: string, apiKey: string, merchantId: string, notificationurl: string): Promise<string> {
  const response = await fetch(`${base}/api/initdynamic`, {
    method: "POST",
    headers: { authorization: `Basic ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      merchantid: merchantId,
      amount: 1000,
      currency: "EUR",
      reference: "bench",
      set3ds: "SKIP_3DS",
      notificationurl,
    }),
  });
  const body = (await response.json()) as { sessionid?: string };
  if (!response.ok || !body.sessionid) throw new Error(`initdynamic: ${response.status} ${JSON.stringify(body)}`);
  return body.sessionid;
}

async function measureSizes(base: string, shopOrigin: string, sessionId: string): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  const assetsOf = async (body: string) => {
    const sources = [...body.matchAll(/src="(\/_cps\/[^"]+)"/g)].map((match) => match[1]!);
    const fetched = await Promise.all(sources.map((source) => get(`${base}${source}`)));
    return fetched;
  };
  const script = await get(`${base}/dynamic/${sessionId}/dynamic.js`, { referer: `${shopOrigin}/demo-shop` });
  if (script.status !== 200) throw new Error(`dynamic.js answered ${script.status}`);
  const scriptAssets = await assetsOf(script.body);
  const binding = /"binding":"([^"]+)"/.exec(script.body)?.[1];
  if (!binding) throw new Error("dynamic.js carries no origin binding");
  const row = (name: string, page: Fetched, assets: Fetched[]): SizeRow => {
    const assetBytes = assets.reduce((sum, asset) => sum + asset.wire, 0);
    return {
      name,
      document: page.wire,
      assets: assetBytes,
      firstLoad: page.wire + assetBytes,
      cacheControl: String(page.headers["cache-control"] ?? ""),
      assetCacheControl: assets.map((asset) => String(asset.headers["cache-control"] ?? "")),
    };
  };
  rows.push(row("dynamic.js", script, scriptAssets));
  for (const name of [...FIELD_PAGES, "controller"]) {
    const page = await get(`${base}/dynamic/${sessionId}/${name}?b=${encodeURIComponent(binding)}`);
    if (page.status !== 200) throw new Error(`${name} answered ${page.status}`);
    if (page.headers["content-encoding"] !== "gzip") throw new Error(`${name} was not served with gzip`);
    rows.push(row(name, page, await assetsOf(page.body)));
  }
  return rows;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface PaymentRun {
  ms: number;
  requests: { url: string; ms: number }[];
}

async function onePayment(page: Page, shopOrigin: string, fieldsOrigin: string, sessionId: string): Promise<PaymentRun> {
  const requests: { url: string; started: number; ms: number }[] = [];
  let recording = false;
  const startedAt = new Map<unknown, number>();
  const onRequest = (request: { url(): string }) => {
    if (recording) startedAt.set(request, performance.now());
  };
  const onFinished = (request: { url(): string }) => {
    const started = startedAt.get(request);
    if (started !== undefined) requests.push({ url: request.url(), started, ms: performance.now() - started });
  };
  page.on("request", onRequest);
  page.on("requestfinished", onFinished);
  try {
    // The session is initialized as a merchant's server does (with its notification address); the page gets its id.
    await page.goto(`${shopOrigin}/demo-shop?sessionid=${sessionId}&amount=1000&currency=EUR`);
    await page.waitForFunction(
      () => (window as unknown as { cpsEvents?: { name: string }[] }).cpsEvents?.some((e) => e.name === "jsinitsuccess"),
      null,
      {
        timeout: 30_000,
      },
    );
    const year = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0");
    for (const [id, value] of [
      ["pan", "4111111111111111"],
      ["expmonth", "12"],
      ["expyear", year],
      ["securitycode", "123"],
    ] as const) {
      await page.frameLocator(`#${id} iframe`).locator("input").fill(value);
    }
    await page.waitForFunction(() => document.getElementById("securitycode")?.classList.contains("cps-valid"), null, { timeout: 10_000 });
    recording = true;
    const ms = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const events = (window as unknown as { cpsEvents: { name: string; payload: unknown }[] }).cpsEvents;
          const push = events.push.bind(events);
          let started = 0;
          events.push = (...items) => {
            const at = performance.now();
            for (const item of items) {
              if (item.name === "jspaymentsuccess") resolve(at - started);
              if (item.name === "jspaymentfailed" || item.name === "jspaymenttimeout") reject(new Error(JSON.stringify(item)));
            }
            return push(...items);
          };
          started = performance.now();
          (window as unknown as { goPay(): void }).goPay();
        }),
    );
    recording = false;
    // A streamed answer finishes after the callback that its last line caused: let its event arrive.
    await page.waitForTimeout(300);
    return {
      ms,
      requests: requests
        .filter((request) => request.url.startsWith(fieldsOrigin))
        .sort((a, b) => a.started - b.started)
        .map((request) => ({
          url: request.url
            .replace(/\/dynamic\/[A-Za-z0-9]+\//, "/dynamic/{sessionid}/")
            .replace(/\/payments\/[A-Za-z0-9]+\//, "/payments/{paymentid}/"),
          ms: Math.round(request.ms * 10) / 10,
        })),
    };
  } finally {
    page.off("request", onRequest);
    page.off("requestfinished", onFinished);
  }
}

/**
 * The floor: one no-store GET of a static file of the fields' server, from the controller frame,
 * where goPay()'s requests start (same frame, same origin, same connection pool; no route code, no database).
 */
async function roundTrip(page: Page, url: string): Promise<number> {
  const controller = page.frames().find((frame) => frame.url().includes("/controller?"));
  if (!controller) throw new Error("no controller frame on the page");
  return controller.evaluate(async (target) => {
    const started = performance.now();
    const response = await fetch(target, { cache: "no-store" });
    await response.arrayBuffer();
    return performance.now() - started;
  }, url);
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    min: round(sorted[0] ?? NaN),
    max: round(sorted.at(-1) ?? NaN),
  };
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const port = Number(process.env.BENCH_PORT ?? (await freePort()));
  const fieldsOrigin = `http://localhost:${port}`;
  const shopOrigin = `http://127.0.0.1:${port}`;
  console.log(`starting the service on port ${port} (build in ${DIST_DIR}, data in ${DATA_DIR})...`);
  const service = await startService(port);
  const verdicts: { target: string; value: string; pass: boolean }[] = [];
  const receiver = await startReceiver();
  try {
    const demo = JSON.parse(readFileSync(path.join(DATA_DIR, "demo.json"), "utf8")) as { merchantId: string; apiKey: string };
    const sessionId = await initSession(fieldsOrigin, demo.apiKey, demo.merchantId, receiver.url);
    const sizes = await measureSizes(fieldsOrigin, shopOrigin, sessionId);

    console.log("\nwhat the browser downloads (gzip bytes on the wire)");
    console.log("page           document   /_cps/ assets  first load  cache-control (document | assets)");
    for (const row of sizes) {
      console.log(
        `${row.name.padEnd(14)} ${String(row.document).padStart(8)} ${String(row.assets).padStart(14)} ${String(row.firstLoad).padStart(11)}  ${row.cacheControl} | ${row.assetCacheControl.join(", ") || "-"}`,
      );
    }
    for (const row of sizes.filter(
      (candidate) => candidate.name === "dynamic.js" || (FIELD_PAGES as readonly string[]).includes(candidate.name),
    )) {
      verdicts.push({
        target: `${row.name} first load < ${TARGET.gzipBytes} B gzip`,
        value: `${row.firstLoad} B`,
        pass: row.firstLoad < TARGET.gzipBytes,
      });
    }
    const perSession = sizes.every((row) => row.cacheControl.includes("no-store"));
    verdicts.push({ target: "per-session documents no-store", value: perSession ? "yes" : "no", pass: perSession });
    const assetHeaders = sizes.flatMap((row) => row.assetCacheControl);
    const immutable = assetHeaders.length > 0 && assetHeaders.every((header) => header === IMMUTABLE);
    verdicts.push({
      target: `content-hashed /_cps/ assets "${IMMUTABLE}"`,
      value: assetHeaders.length ? [...new Set(assetHeaders)].join("; ") : "no /_cps/ asset loaded",
      pass: immutable,
    });

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
    const payments: number[] = [];
    const floors: number[] = [];
    let requestsOfLast: PaymentRun["requests"] = [];
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      // A static file that the build wrote: served by Next from public/, no database, no route code.
      const staticFile = readdirSync("public/_cps").find((file) => file.endsWith(".js"));
      const floorUrl = `${fieldsOrigin}/_cps/${staticFile}`;
      // Two warm-up payments: the server's first requests compile routes and fill caches.
      for (let index = 0; index < PAYMENTS + 2; index++) {
        const run = await onePayment(
          page,
          shopOrigin,
          fieldsOrigin,
          await initSession(fieldsOrigin, demo.apiKey, demo.merchantId, receiver.url),
        );
        const floor = await roundTrip(page, floorUrl);
        if (index < 2) continue;
        payments.push(run.ms);
        floors.push(floor);
        requestsOfLast = run.requests;
      }
      await context.close();
    } finally {
      await browser.close();
    }
    const payment = summary(payments);
    const floor = summary(floors);
    console.log(`\ncardholder payment, goPay() -> jspaymentsuccess, ${payment.n} payments (Chromium, sandbox acquirer)`);
    console.log(`  payment   p50 ${payment.p50} ms  p99 ${payment.p99} ms  min ${payment.min}  max ${payment.max}`);
    console.log(
      `  floor     p50 ${floor.p50} ms  p99 ${floor.p99} ms  (one no-store GET of a static file of the same server from the same page)`,
    );
    console.log(`  ratio     p50 ${(payment.p50 / floor.p50).toFixed(1)} x the floor`);
    console.log("  requests between goPay() and success (last payment):");
    for (const request of requestsOfLast) console.log(`    ${String(request.ms).padStart(7)} ms  ${request.url}`);
    verdicts.push({
      target: `payment p50 < ${TARGET.paymentP50Ms} ms`,
      value: `${payment.p50} ms`,
      pass: payment.p50 < TARGET.paymentP50Ms,
    });

    console.log("");
    for (const verdict of verdicts) console.log(`${verdict.pass ? "PASS" : "FAIL"}  ${verdict.target}: ${verdict.value}`);
    writeFileSync(
      path.join(RESULTS_DIR, "hosted-fields.json"),
      JSON.stringify({ at: new Date().toISOString(), target: TARGET, sizes, payment, floor, requests: requestsOfLast, verdicts }, null, 2),
    );
  } finally {
    receiver.close();
    await stopService(service);
  }
  if (verdicts.some((verdict) => !verdict.pass)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
