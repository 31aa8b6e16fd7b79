// Benchmark of the acquirer connectors against their sandboxes (npm run bench -- processors), over
// real HTTP on 127.0.0.1. Measures per processor:
//  - latency of one authorization at a time: p50/p99;
//  - throughput: BENCH_AUTHORIZATIONS authorizations with BENCH_CONCURRENCY in flight;
//  - isolation: the p99 latency of authorizations while BENCH_HANGING calls to the same sandbox hang
//    (the "does not answer in time" card) — a slow acquirer must not slow the others.
// Targets (sandbox plus connector, so they measure our plumbing): p50 < 10 ms; p99 while others hang < 50 ms.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CardDetails } from "../../lib/cards/card-details";
import { newId } from "../../lib/ids";
import { createBamboraConnector } from "../../lib/acquirers/bambora/client";
import { BAMBORA_SANDBOX_CREDENTIALS } from "../../lib/sandboxes/acquirers/bambora";
import { createClearhausConnector } from "../../lib/acquirers/clearhaus/client";
import { CLEARHAUS_SANDBOX_API_KEY } from "../../lib/sandboxes/acquirers/clearhaus";
import { bindCredentials } from "../../lib/acquirers/registry";
import { createFinaroConnector } from "../../lib/acquirers/finaro/client";
import { FINARO_SANDBOX_CREDENTIALS, FINARO_SANDBOX_PATH } from "../../lib/sandboxes/acquirers/finaro";
import { startSandboxes } from "../../lib/sandboxes/acquirers/start-sandboxes";
import { type ProcessorConnector } from "../../lib/acquirers/contract";
import { ACQUIRER_NAMES, type AcquirerName } from "../../lib/acquirers/names";
import { percentile } from "./lib/percentile";

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 200);
const AUTHORIZATIONS = Number(process.env.BENCH_AUTHORIZATIONS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const HANGING = Number(process.env.BENCH_HANGING ?? 50);
const TARGET_P50_MS = 10;
const TARGET_ISOLATED_P99_MS = 50;
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");

const expYear = new Date().getUTCFullYear() + 2;
const approvable = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear, securityCode: "123" });
const hanging = new CardDetails({ pan: "4000000000000119", expMonth: 12, expYear, securityCode: "123" });
/** CAD: the currency of the Bambora North America sandbox account; finaro and clearhaus take any. */
const BENCH_CURRENCY = "CAD";

/** In milliseconds to two decimals. */
function percentileMs(values: number[], p: number): number {
  return Math.round(percentile(values, p) * 100) / 100;
}

async function timedAuthorization(connector: ProcessorConnector): Promise<number> {
  const started = performance.now();
  const result = await connector.authorize({ operationId: newId(), paymentId: newId(), amount: 1_000n, currency: BENCH_CURRENCY, card: approvable });
  if (result.status !== "approved") throw new Error(`${connector.name}: expected an approval, got ${result.status} ${result.responsecode}`);
  return performance.now() - started;
}

async function withConcurrency(total: number, concurrency: number, task: () => Promise<number>): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        latencies.push(await task());
      }
    }),
  );
  return latencies;
}

const sandboxes = await startSandboxes({ register: false, threeDs: false, hangMs: 60_000, extensions: true });
const connectorFor = (name: AcquirerName, timeoutMs: number): ProcessorConnector => {
  switch (name) {
    // Each bound to the sandbox's first test account, as a merchant's acquirer account would be.
    case "finaro":
      return bindCredentials(
        createFinaroConnector({ baseUrl: `${sandboxes.urls.finaro}${FINARO_SANDBOX_PATH}`, timeoutMs }),
        { ...FINARO_SANDBOX_CREDENTIALS },
        "bench",
        "test",
      );
    case "clearhaus":
      return bindCredentials(
        createClearhausConnector({ baseUrl: sandboxes.urls.clearhaus!, timeoutMs }),
        { apiKey: CLEARHAUS_SANDBOX_API_KEY },
        "bench",
        "test",
      );
    case "bambora":
      return bindCredentials(
        createBamboraConnector({ baseUrl: sandboxes.urls.bambora!, timeoutMs }),
        { ...BAMBORA_SANDBOX_CREDENTIALS },
        "bench",
        "test",
      );
  }
};

const results = [];
let allMet = true;
try {
  for (const name of ACQUIRER_NAMES) {
    const connector = connectorFor(name, 10_000);
    await withConcurrency(50, 5, () => timedAuthorization(connector)); // warm-up
    const sequential = await withConcurrency(SEQUENTIAL, 1, () => timedAuthorization(connector));
    const started = performance.now();
    await withConcurrency(AUTHORIZATIONS, CONCURRENCY, () => timedAuthorization(connector));
    const perSecond = Math.round(AUTHORIZATIONS / ((performance.now() - started) / 1000));

    const slow = connectorFor(name, 30_000);
    const aborter = new AbortController();
    const hung = Array.from({ length: HANGING }, () =>
      slow.authorize(
        { operationId: newId(), paymentId: newId(), amount: 1_000n, currency: BENCH_CURRENCY, card: hanging },
        { signal: aborter.signal },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const isolated = await withConcurrency(SEQUENTIAL, 1, () => timedAuthorization(connector));
    aborter.abort();
    await Promise.all(hung);

    const result = {
      processor: name,
      p50Ms: percentileMs(sequential, 50),
      p99Ms: percentileMs(sequential, 99),
      authorizationsPerSecond: perSecond,
      p99WhileHangingMs: percentileMs(isolated, 99),
      hanging: HANGING,
    };
    const met = result.p50Ms < TARGET_P50_MS && result.p99WhileHangingMs < TARGET_ISOLATED_P99_MS;
    allMet &&= met;
    results.push({ ...result, targetsMet: met });
    console.log(
      `${name}: authorize p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (target p50 < ${TARGET_P50_MS} ms); ${perSecond} authorizations/s at ${CONCURRENCY} in flight; p99 ${result.p99WhileHangingMs} ms while ${HANGING} calls hang (target < ${TARGET_ISOLATED_P99_MS} ms): ${met ? "met" : "NOT met"}`,
    );
  }
} finally {
  await sandboxes.close();
}
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(
  path.join(RESULTS_DIR, "processors.json"),
  JSON.stringify({ sequential: SEQUENTIAL, authorizations: AUTHORIZATIONS, concurrency: CONCURRENCY, results }, null, 2),
);
process.exit(allMet ? 0 : 1);
