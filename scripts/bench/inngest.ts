// Benchmark of the embedded Inngest executor (npm run bench -- inngest). Functions are served with
// serve() from "inngest/next" on node:http and run by the executor with the real clock, as in the
// service. Measures:
//  - chain latency: sendEvent -> a function's step (the "processor call") -> step.sendEvent ->
//    a second function's step (the "notification delivery"), one at a time: p50/p99. This is the
//    executor's share of issue 4's capture-to-notification target (p50 < 100 ms).
//  - throughput: BENCH_RUNS events at once for a 3-step function: runs/s and calls/s.
// On the embedded database (PGlite) and, if available, PostgreSQL (BENCH_DATABASE_URL, else a
// throwaway cluster from scripts/pg-test-cluster.sh). Knobs: BENCH_CHAINS (50), BENCH_RUNS (200).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eventType } from "inngest";
import { serve } from "inngest/next";
import pg from "pg";
import { z } from "zod";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { migrateDatabase } from "../../lib/db/migrations";
import { db, disconnectDb } from "../../lib/db";
import { resetConfig } from "../../lib/env";
import { inngest } from "../../lib/inngest/client";
import { EmbeddedExecutor } from "../../lib/inngest/executor/embedded-executor";
import { sendEvent } from "../../lib/inngest/send-event";
import { embeddedSigningKey } from "../../lib/inngest/signing-key";
import { serveOnHttp } from "../../tests/helpers/serve-on-http";

const CHAINS = Number(process.env.BENCH_CHAINS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TARGET_CHAIN_P50_MS = 100;
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");
const log = (line: string) => console.log(`[inngest bench] ${line}`);

const captureRequested = eventType("bench/capture.requested", { schema: z.object({ n: z.number() }) });
const notificationCreated = eventType("bench/notification.created", { schema: z.object({ n: z.number() }) });
const throughputRequested = eventType("bench/throughput", { schema: z.object({ n: z.number() }) });

const delivered = new Map<number, (at: number) => void>();
let throughputDone = 0;
let onThroughputDone: (() => void) | undefined;

const processCapture = inngest.createFunction({ id: "bench-process-capture", triggers: [captureRequested] }, async ({ event, step }) => {
  const result = await step.run("call-processor", () => ({ approved: true, n: event.data.n }));
  await step.sendEvent("notify", notificationCreated.create({ n: result.n }, { id: `bench-notify-${result.n}-${event.id}` }));
});
const deliverNotification = inngest.createFunction(
  { id: "bench-deliver-notification", triggers: [notificationCreated] },
  async ({ event, step }) => {
    await step.run("attempt-1", () => {
      delivered.get(event.data.n)?.(performance.now());
      return true;
    });
  },
);
const threeSteps = inngest.createFunction({ id: "bench-three-steps", triggers: [throughputRequested] }, async ({ event, step }) => {
  const a = await step.run("a", () => event.data.n);
  const b = await step.run("b", () => a + 1);
  await step.run("c", () => {
    throughputDone++;
    if (throughputDone === RUNS) onThroughputDone?.();
    return b + 1;
  });
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function measure(engine: string, url: string): Promise<Record<string, number | string>> {
  process.env.DATABASE_URL = url;
  resetConfig();
  await migrateDatabase(url);
  const route = await serveOnHttp({ handlers: serve({ client: inngest, functions: [processCapture, deliverNotification, threeSteps] }) });
  const executor = new EmbeddedExecutor({ database: db(), serveUrl: route.url, signingKey: embeddedSigningKey(), concurrency: 8 });
  executor.start();
  try {
    const latencies: number[] = [];
    for (let n = 0; n < CHAINS + 5; n++) {
      const arrived = new Promise<number>((resolve) => delivered.set(n, resolve));
      const start = performance.now();
      await sendEvent({ type: captureRequested, data: { n }, id: `bench-capture-${engine}-${n}-${randomBytes(3).toString("hex")}` });
      const end = await arrived;
      if (n >= 5) latencies.push(end - start); // the first few warm up the routes and the pool
    }
    latencies.sort((a, b) => a - b);

    throughputDone = 0;
    const allDone = new Promise<void>((resolve) => (onThroughputDone = resolve));
    const start = performance.now();
    await inngest.send(
      Array.from({ length: RUNS }, (_, n) => ({
        name: "bench/throughput",
        data: { n },
        id: `bench-tp-${engine}-${n}-${randomBytes(3).toString("hex")}`,
      })),
    );
    await allDone;
    const seconds = (performance.now() - start) / 1000;
    const result = {
      engine,
      chainP50Ms: Math.round(percentile(latencies, 50)),
      chainP99Ms: Math.round(percentile(latencies, 99)),
      runsPerSecond: Math.round(RUNS / seconds),
      // 4 calls per 3-step run: three steps run inline in discovery calls, then the completing call.
      callsPerSecond: Math.round((RUNS * 4) / seconds),
    };
    log(
      `${engine}: capture->notification chain p50 ${result.chainP50Ms} ms, p99 ${result.chainP99Ms} ms (target p50 < ${TARGET_CHAIN_P50_MS} ms: ${result.chainP50Ms < TARGET_CHAIN_P50_MS ? "met" : "NOT met"}); ${RUNS} three-step runs: ${result.runsPerSecond} runs/s, ${result.callsPerSecond} calls/s`,
    );
    return result;
  } finally {
    await executor.stop();
    await route.close();
    await disconnectDb();
  }
}

function postgresAdminUrl(): string | undefined {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  try {
    const out = execFileSync("bash", ["scripts/pg-test-cluster.sh", "start"], {
      env: { ...process.env, PG_TEST_PORT: process.env.BENCH_PG_PORT ?? "55498", PG_TEST_DIR: "/tmp/cps-bench-inngest-pg" },
    }).toString();
    return out.match(/TEST_DATABASE_URL=(\S+)/)?.[1];
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const results: Record<string, number | string>[] = [];
  const embedded = await startEmbeddedPostgres({ memory: true, port: 0 });
  try {
    results.push(await measure("embedded", embedded.url));
  } finally {
    await embedded.stop();
  }
  const admin = postgresAdminUrl();
  if (admin) {
    const name = `cps_bench_inngest_${randomBytes(4).toString("hex")}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE "${name}"`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    try {
      results.push(await measure("postgres", url.toString()));
    } finally {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    }
  } else {
    log("PostgreSQL not available: measured the embedded database only");
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, "inngest.json"), JSON.stringify({ chains: CHAINS, runs: RUNS, results }, null, 2));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
