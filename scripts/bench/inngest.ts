// Benchmark of background work (npm run bench -- inngest): the embedded executor in a production
// build on PostgreSQL, with the web role (merchant API) and the worker role (the executor) as two
// separate processes, as an operator runs them (docs/operations.md §3), the acquirer sandboxes in a
// process of their own (`npm run sandbox`, so that the worker's CPU time is the worker's alone), and
// the floors every target is a ratio to, measured in the same run (issues 14 and 29):
//  - the background floor (scripts/bench/background-floor.mjs): a bare node:http + pg worker doing
//    exactly the background work of one capture (claim a row with SKIP LOCKED, the same sandbox
//    call, write the result, POST the notification to the same receiver, record the attempt), fed
//    at the same rate: its CPU per capture and its capture -> notification latency;
//  - the Inngest floor (issue 37): the background floor plus one call of a trivial Inngest function
//    through the SDK's comm handler, called directly with process.env as a plain object, the
//    cheapest way the SDK runs a function: what any design that keeps each capture's work an
//    Inngest function pays at least. Measured as one process (decision 0235): the background floor
//    making that call in each job (FLOOR_SDK_BUNDLE, scripts/bench/lib/floor-sdk-call.ts), fed and
//    warmed up as the plain one; worker CPU per capture is a ratio to it. The sum of the plain
//    floor and the call alone in a loop of this process (scripts/bench/lib/serve-protocol.ts), the
//    reading before decision 0235, is printed beside it;
//  - the Next.js + INSERT floor (POST /api/bench-floor/insert of the same build, BENCH_FLOORS=1;
//    the merchant-api bench's floor), against capture's throughput and p99 at 50 connections;
//  - the job floor (POST /api/bench-floor/job): the same handler inserting a job row with its
//    pg_notify, which the background floor works off meanwhile: the least a capture with its
//    background work costs when both share the machine (decision 0228). No target of its own: it
//    tells how far the insert floor's ratios can be reached at all with background work running;
//    and the Inngest job floor (decision 0235): the same, its rows worked off by the floor that makes
//    the SDK call, measured last: how far they can be reached under the design card.
// Measures, in one run:
//  1. idle CPU of the web and the worker process over BENCH_IDLE_S seconds (utime + stime from
//     /proc/<pid>/stat, the process and its children), after they warmed up, the worker's first
//     cron round is over (decision 0233) and BENCH_SETTLE_S seconds passed since the warm-up's last
//     notification (decision 0238: V8's memory reducer compacts the heaps the load grew), so that the
//     window holds one later round and none of the load's tail;
//  2. the background floor at BENCH_RATE per second for BENCH_PHASE_S seconds, then the Inngest
//     floor as one process (its own process and tables, started and warmed up for this phase);
//  3. capture -> notification: first, a probe process that has held as much memory as the worker
//     since the warm-up, untouched as long as the services, touches it again (decision 0240: what
//     the quiet costs the machine by itself, read beside the phase's first seconds); then
//     captures are sent open loop at BENCH_RATE per second for
//     BENCH_PHASE_S seconds; for each, the time from sending the capture request to its notification
//     arriving at a local receiver: p50 / p99; CPU per capture of web and worker (phase start until
//     the work drained) and, with pg_stat_statements, SQL statements per capture of each process
//     (each connects as a database role of its own);
//  4. the retry schedule under the same load: the receiver answers 500 to the first attempt of
//     every notification of this phase; for each, the gap from that failed answer to the second
//     attempt (spec 6.2: 3 s), which must lie in [3.0, 3.5] s for every notification;
//  5. throughput: the Next.js + INSERT floor, the job floor, capture (1-unit partial captures),
//     then the Inngest job floor, each for BENCH_DURATION_S seconds at BENCH_CONNECTIONS connections (autocannon),
//     each after its warm-up's background work drained; for the job floor and capture, how much of
//     the phase's background work was done within it.
// Targets (issues 14, 29 and 37): idle CPU < 1% of a core per process; worker CPU per capture <= 2 x the
// Inngest floor's; statements per capture: worker <= 8, web <= 4; capture -> notification p50 < 30 ms and p99 < 150 ms at 100 captures/s, every
// capture accepted; every 3-second retry attempted 3.0 to 3.5 s after the failed attempt; capture
// >= 0.5 x the Next.js + INSERT floor's throughput with p99 <= 2 x the floor's. Printed as a
// markdown table with PASS/FAIL (docs/performance.md), and UNREACHABLE for a capture target the
// run's Inngest job floor misses too (decision 0236); the process exits 0 whatever the verdicts.
// Uses BENCH_DATABASE_URL (a PostgreSQL server where it may create a database and roles; with
// pg_stat_statements preloaded for the statement counts, else they are reported as missing), else a
// throwaway cluster from scripts/pg-test-cluster.sh (BENCH_PG_PORT, default 55560). Builds into
// NEXT_DIST_DIR (default .next-bench-inngest) unless a build is there. Ports: BENCH_PORT (web;
// worker +1, receiver +2, sandboxes +3 to +6). Knobs: BENCH_RATE (100), BENCH_PHASE_S (15),
// BENCH_IDLE_S (60), BENCH_SETTLE_S (110: from the warm-up's end to the idle window at least),
// BENCH_WARM_CAPTURES (200: the warm-up's captures, and as many floor jobs; a
// longer warm-up lowers the floor's cost more than the worker's, docs/performance.md),
// BENCH_CONNECTIONS (50), BENCH_DURATION_S (10), BENCH_SERVICE_NODE_ARGS (node flags for the web
// and the worker, to try), BENCH_SERVICE_STDOUT_DIR (each service's standard output to a file
// there, for what such a flag prints: --trace-gc), BENCH_CPU_PROF=1 (writes
// --cpu-prof profiles of web, worker and floor to bench-results/inngest-profiles/ and prints where
// their time went; profiling slows them: use it for profiles, not for the figures),
// BENCH_KEEP_DATABASE=1 (the database is left in place and its URL printed).
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import autocannon from "autocannon";
import { buildIfMissing, workerScript } from "./build-if-missing";
import { benchAdminUrl, dropBenchDatabase, migratedBenchDatabase } from "./lib/bench-database";
import { residentMegabytes, startQuietMemoryProbe, type QuietMemoryProbe } from "./lib/quiet-memory";
import { percentile } from "./lib/percentile";
import { captureVerdicts, verdictText, type Verdict } from "./lib/capture-verdicts";
import { summarizeProfiles, type ProfileSummary } from "./lib/profile-summary";
import { measureSdkCalls, type SdkCallCosts } from "./lib/serve-protocol";
import { SERVICE_NODE_FLAGS } from "../../lib/runtime/service-node-flags";

const require = createRequire(import.meta.url);
const NEXT_BIN = require.resolve("next/dist/bin/next");
const RATE = Number(process.env.BENCH_RATE ?? 100);
const PHASE_S = Number(process.env.BENCH_PHASE_S ?? 15);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
/**
 * From the warm-up's last notification until the idle window may begin (decision 0238): V8's memory
 * reducer starts at the latest 100 s after the last full collection (kWatchdogDelayMs, checked on
 * its 8 s timer), and the load's last one came before its end.
 */
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 110);
const WARM_CAPTURES = Number(process.env.BENCH_WARM_CAPTURES ?? 200);
/** From the start of a cron round until it is surely over (a round's runs took 0.1 to 0.85 s from start to end). */
const FIRST_CRON_ROUND_MS = 10_000;
const WEB_PORT = Number(process.env.BENCH_PORT ?? 3460);
const WORKER_PORT = WEB_PORT + 1;
const RECEIVER_PORT = WEB_PORT + 2;
const SANDBOX_PORTS = { finaro: WEB_PORT + 3, clearhaus: WEB_PORT + 4, bambora: WEB_PORT + 5, threeds: WEB_PORT + 6 };
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next-bench-inngest";
const DATA_DIR = path.resolve(".data-bench-inngest");
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");
const CPU_PROF = process.env.BENCH_CPU_PROF === "1";
const PROFILE_DIR = path.join(RESULTS_DIR, "inngest-profiles");
/** The background floor's tables and channel (background-floor.mjs), and the SDK floor's (decision 0235). */
const FLOOR_TABLES = "bench_floor";
const SDK_FLOOR_TABLES = "bench_floor_sdk";
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

const TARGETS = {
  idleCpuPercent: 1,
  workerCpuToFloor: 2,
  workerStatements: 8,
  webStatements: 4,
  latencyP50Ms: 30,
  latencyP99Ms: 150,
  retryMinMs: 3_000,
  retryMaxMs: 3_500,
  throughputToFloor: 0.5,
  p99ToFloor: 2,
};

const secrets = {
  SESSION_SECRET: randomBytes(32).toString("hex"),
  API_KEY_SECRET: randomBytes(32).toString("hex"),
  CARD_DATA_KEY: randomBytes(32).toString("base64"),
};

const log = (line: string) => console.log(`[inngest bench] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every request the receiver got, per notification (responseid), with the times it answered. */
interface Receiver {
  url: string;
  /** When true, the first request for each notification not seen before is answered 500. */
  failFirst: boolean;
  attempts: Map<string, { arrivedAt: number; answeredAt: number; status: number; failFirst: boolean }[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: `http://127.0.0.1:${RECEIVER_PORT}/notify`,
    failFirst: false,
    attempts: new Map(),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const arrivedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let id: string | undefined;
      try {
        id = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { responseid?: string }).responseid;
      } catch {
        // not JSON: answered 200, not recorded
      }
      if (!id) return void res.writeHead(200).end("ok");
      const seen = receiver.attempts.get(id) ?? [];
      const failFirst = seen.length === 0 ? receiver.failFirst : (seen[0]?.failFirst ?? false);
      const status = failFirst && seen.length === 0 ? 500 : 200;
      // Taken before the answer is written: the worker, on the other core, may read its own clock
      // for the retry's due time before this process gets to read its clock after the write.
      const answeredAt = performance.now();
      res.writeHead(status).end(status === 200 ? "ok" : "try again");
      seen.push({ arrivedAt, answeredAt, status, failFirst });
      receiver.attempts.set(id, seen);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(RECEIVER_PORT, "127.0.0.1", resolve));
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

interface Service {
  name: string;
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** dist/worker.js, compiled in main() before any service starts. */
let workerScriptPath = "";

function startService(name: "web" | "worker", port: number, env: Record<string, string>): Service {
  // The launcher's flags (scripts/start.ts), then the profiler's, then any to try.
  const nodeArgs = [...SERVICE_NODE_FLAGS];
  if (CPU_PROF) nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`);
  // V8 flags to try on the web and the worker (BENCH_SERVICE_NODE_ARGS, space-separated, after the
  // launcher's, so a later one wins): some are refused in NODE_OPTIONS.
  nodeArgs.push(...(process.env.BENCH_SERVICE_NODE_ARGS ?? "").split(" ").filter(Boolean));
  // A worker runs no Next.js (decision 0219): its own script, as the launcher starts it.
  const command = name === "worker" ? [workerScriptPath] : [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)];
  // What a flag like --trace-gc prints goes to stdout: kept in a file per service with BENCH_SERVICE_STDOUT_DIR.
  const stdoutDir = process.env.BENCH_SERVICE_STDOUT_DIR;
  if (stdoutDir) mkdirSync(stdoutDir, { recursive: true });
  const stdout = stdoutDir ? openSync(path.join(stdoutDir, `${name}-${Date.now()}.log`), "a") : "ignore";
  const child = spawn(process.execPath, [...nodeArgs, ...command], {
    stdio: ["ignore", stdout, "pipe"],
    detached: true, // its own process group: stopped through it, never by name
    env: {
      ...process.env,
      ...env,
      ROLE: name,
      NODE_ENV: "production",
      NEXT_DIST_DIR: DIST_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: `http://127.0.0.1:${WEB_PORT}`,
      NEXT_TELEMETRY_DISABLED: "1",
      // Measured: the executor, not the per-key limit (one key makes every request).
      RATE_LIMIT_API_PER_SECOND: "0",
      LOG_FORMAT: "json",
      LOG_LEVEL: "warn",
      // The sandboxes run in their own process (startSandboxProcess): none inside the measured ones.
      PROCESSOR_SANDBOXES: "0",
      // The Next.js + INSERT floor answers in the web process of this benchmark only (lib/api/bench-floor.ts).
      BENCH_FLOORS: name === "web" ? "1" : "0",
      // SIGTERM runs lib/runtime/graceful-shutdown.ts, which exits normally: --cpu-prof writes its profile then.
      NEXT_MANUAL_SIG_HANDLE: "1",
    },
  });
  if (typeof stdout === "number") closeSync(stdout); // the child has its own copy
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  return {
    name,
    child,
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      // Graceful shutdown ends within SHUTDOWN_TIMEOUT_MS (25 s); a profile is written at the exit.
      await Promise.race([exited, sleep(60_000)]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    },
  };
}

async function waitForReady(service: Service): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited with ${service.child.exitCode}`);
    try {
      const response = await fetch(`${service.base}/api/health/ready`);
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(300);
  }
  throw new Error(`${service.name} did not become ready`);
}

/** The process and its live descendants, from /proc's parent links. */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [rootPid];
  for (let index = 0; index < tree.length; index++) tree.push(...(children.get(tree[index]!) ?? []));
  return tree;
}

/** CPU time (s) used so far by the process and its descendants. */
function cpuSeconds(rootPid: number): number {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8");
      const rest = fields.slice(fields.lastIndexOf(")") + 2).split(" ");
      // utime, stime (fields 14 and 15) and cutime, cstime (16, 17): a child it reaped meanwhile (a
      // PostgreSQL backend that ended) is counted there, a live one in its own entry.
      ticks += Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]);
    } catch {
      // ended meanwhile
    }
  }
  return ticks / CLOCK_TICKS;
}

/**
 * CPU seconds of a process and its descendants by thread name (/proc/<pid>/task/<tid>/stat: utime +
 * stime), "<process name>/<thread name>": which of Node's threads (the main thread, V8's
 * platform workers that mark and sweep concurrently, libuv's pool) used the time.
 */
function cpuSecondsByThread(rootPid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const pid of processTree(rootPid)) {
    let processName: string;
    let threads: string[];
    try {
      processName = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // ended meanwhile
    }
    for (const tid of threads) {
      try {
        const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = `${processName}/${Number(tid) === pid ? "main" : fields.slice(fields.indexOf("(") + 1, fields.lastIndexOf(")"))}`;
        const rest = fields.slice(fields.lastIndexOf(")") + 2).split(" ");
        byThread.set(name, (byThread.get(name) ?? 0) + (Number(rest[11]) + Number(rest[12])) / CLOCK_TICKS);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return byThread;
}

/** The machine's busy and total CPU time (s), all cores, from /proc/stat. */
function machineCpuSeconds(): { busy: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / CLOCK_TICKS, total: (busy + idle + iowait) / CLOCK_TICKS };
}

/**
 * Who used the machine's cores while a load ran: each process (with its descendants) as a percentage
 * of one core, the machine's busy share of all its cores, and what none of them accounts for (the
 * kernel's network work on their behalf is counted to each process's system time already).
 */
function cpuShares(processes: Record<string, () => number>): { take(): Record<string, number> } {
  const before = Object.fromEntries(Object.entries(processes).map(([name, read]) => [name, read()]));
  const machineBefore = machineCpuSeconds();
  const started = performance.now();
  return {
    take() {
      const seconds = (performance.now() - started) / 1000;
      const machine = machineCpuSeconds();
      const shares: Record<string, number> = {};
      let accounted = 0;
      for (const [name, read] of Object.entries(processes)) {
        const used = read() - (before[name] as number);
        accounted += used;
        shares[name] = Math.round((used / seconds) * 100);
      }
      const busy = machine.busy - machineBefore.busy;
      shares.other = Math.round(((busy - accounted) / seconds) * 100);
      shares.machineBusyPercentOfAllCores = Math.round((busy / (machine.total - machineBefore.total)) * 100);
      return shares;
    },
  };
}

/**
 * Idle CPU of each service over `seconds`, % of one core, and where it went: each second's share is
 * sampled, so a cost that comes once a minute (the cron rounds) shows as the seconds it took,
 * named by the wall-clock second they ended in.
 */
async function idleCpu(
  services: Service[],
  seconds: number,
): Promise<{ percent: Record<string, number>; busiestSeconds: Record<string, string[]>; byThread: Record<string, Record<string, number>> }> {
  const read = () => services.map((service) => cpuSeconds(service.child.pid as number));
  const threadsBefore = services.map((service) => cpuSecondsByThread(service.child.pid as number));
  const before = read();
  const started = performance.now();
  const perSecond: { at: string; used: number[] }[] = [];
  let last = before;
  for (let second = 0; second < seconds; second++) {
    await sleep(started + (second + 1) * 1000 - performance.now());
    const now = read();
    perSecond.push({ at: new Date().toISOString().slice(11, 19), used: now.map((value, index) => value - (last[index] as number)) });
    last = now;
  }
  const elapsed = (performance.now() - started) / 1000;
  const percent = Object.fromEntries(
    services.map((service, index) => [service.name, Number(((((last[index] as number) - (before[index] as number)) / elapsed) * 100).toFixed(2))]),
  );
  const busiestSeconds = Object.fromEntries(
    services.map((service, index) => [
      service.name,
      [...perSecond]
        .sort((a, b) => (b.used[index] as number) - (a.used[index] as number))
        .slice(0, 5)
        .map((one) => `${one.at} ${Math.round((one.used[index] as number) * 1000)} ms`),
    ]),
  );
  // Threads by name, % of one core over the window (a thread that ended meanwhile is not counted).
  const byThread = Object.fromEntries(
    services.map((service, index) => {
      const after = cpuSecondsByThread(service.child.pid as number);
      const used = [...after].map(([name, value]) => [name, ((value - (threadsBefore[index]!.get(name) ?? 0)) / elapsed) * 100] as const);
      return [service.name, Object.fromEntries(used.filter(([, value]) => value >= 0.05).sort((a, b) => b[1] - a[1]).map(([name, value]) => [name, Number(value.toFixed(2))]))];
    }),
  );
  return { percent, busiestSeconds, byThread };
}

/**
 * Starts `send` RATE times a second for `seconds`, each on its schedule whatever the earlier ones take
 * (open loop), and waits for all of them. `send` throws to stop the loop (it ran out of work).
 */
async function openLoop(seconds: number, send: () => Promise<unknown>): Promise<{ sent: number; elapsedMs: number }> {
  const total = Math.round(seconds * RATE);
  const pending: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (let index = 0; index < total; index++) {
    const wait = t0 + (index * 1000) / RATE - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(send());
  }
  await Promise.all(pending);
  return { sent: total, elapsedMs: performance.now() - t0 };
}

/**
 * Samples grouped by the second of a phase they belong to (`atMs`, from `startMs`), each second
 * as "<second>s:<p50>" or, with `withMax`, "<second>s:<p50>/<max>" (ms): a queue, a stall or a
 * cold start shows where it is.
 */
function bySecond(samples: Array<{ atMs: number; ms: number }>, startMs: number, withMax = true): string[] {
  return groupedBySecond(samples, startMs).map(([second, group]) => {
    const list = group.map((sample) => sample.ms);
    return `${second}s:${Math.round(percentile(list, 50))}${withMax ? `/${Math.round(Math.max(...list))}` : ""}`;
  });
}

/** Samples by the second of the phase they belong to (`atMs`, from `startMs`), in order of the seconds. */
function groupedBySecond<Sample extends { atMs: number }>(samples: Sample[], startMs: number): Array<[number, Sample[]]> {
  const seconds = new Map<number, Sample[]>();
  for (const sample of samples) {
    const second = Math.floor((sample.atMs - startMs) / 1000);
    const group = seconds.get(second);
    if (group) group.push(sample);
    else seconds.set(second, [sample]);
  }
  return [...seconds.entries()].sort(([a], [b]) => a - b);
}

/** How many samples fell in each second from `startMs`: "<second>s:<count>" for the seconds with any. */
function countBySecond(samples: Array<{ atMs: number }>, startMs: number): string {
  return groupedBySecond(samples, startMs)
    .map(([second, group]) => `${second}s:${group.length}`)
    .join(" ");
}

/** Sends captures open loop at RATE per second for `seconds`; resolves with each capture's start time by responseid. */
async function captureLoad(options: { base: string; apiKey: string; paymentIds: string[]; seconds: number }): Promise<{
  started: Map<string, number>;
  failures: number;
  sent: number;
  refusals: Record<string, number>;
  acceptedPerSecond: number;
  captureAnswerMs: { p50: number; p99: number };
  /** The answers' p50 and max (ms) by the second of the phase the capture was sent in: a stall shows as a second. */
  answerBySecond: string[];
}> {
  const started = new Map<string, number>();
  const answers: Array<{ atMs: number; ms: number }> = [];
  const phaseStart = performance.now();
  let failures = 0;
  const refusals: Record<string, number> = {};
  const answerTimes: number[] = [];
  const refuse = (why: string) => {
    failures++;
    refusals[why] = (refusals[why] ?? 0) + 1;
  };
  const load = await openLoop(options.seconds, () => {
    const paymentId = options.paymentIds.shift();
    if (!paymentId) throw new Error("ran out of payments to capture");
    const sentAt = performance.now();
    return fetch(`${options.base}/api/${paymentId}/capture`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${options.apiKey}` },
      body: "{}",
    })
      .then(async (response) => {
        const body = (await response.json()) as { responseid?: string; error?: string; errordescription?: string };
        if (response.status !== 200 || !body.responseid)
          refuse(
            `HTTP ${response.status} ${body.error ?? ""} ${(body.errordescription ?? "").replace(/; quote request id \w+/, "")}`
              .trim()
              .slice(0, 120),
          );
        else {
          started.set(body.responseid, sentAt);
          answerTimes.push(performance.now() - sentAt);
          answers.push({ atMs: sentAt, ms: performance.now() - sentAt });
        }
      })
      .catch((error: unknown) =>
        refuse(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}`.slice(0, 120) : "error"),
      );
  });
  return {
    started,
    failures,
    sent: load.sent,
    refusals,
    acceptedPerSecond: Math.round((started.size / load.elapsedMs) * 1000),
    captureAnswerMs: { p50: Math.round(percentile(answerTimes, 50)), p99: Math.round(percentile(answerTimes, 99)) },
    answerBySecond: bySecond(answers, phaseStart),
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await sleep(intervalMs);
  }
  return true;
}

/** Waits until no event waits for fan-out and no job is pending (background work drained). */
async function waitForQuiet(db: () => import("../../lib/generated/prisma/client").PrismaClient, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [row] = await db().$queryRaw<{ events: number; jobs: number }[]>`
      SELECT (SELECT count(*)::int FROM "InngestEvent" WHERE "fannedOutAt" IS NULL) AS "events",
             (SELECT count(*)::int FROM "InngestJob") AS "jobs"`;
    if (row && row.events === 0 && row.jobs === 0) return true;
    await sleep(500);
  }
  return false;
}

/** A child process in its own process group, stopped through it (never by name). */
function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, signal);
  const timer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, "SIGKILL"), 30_000);
  return exited.finally(() => clearTimeout(timer));
}

/** `npm run sandbox` (scripts/sandbox.ts) in its own process; resolves with the variables it prints. */
async function startSandboxProcess(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/sandbox.ts", ...Object.entries(SANDBOX_PORTS).flatMap(([name, port]) => [`--${name}`, String(port)])],
    { stdio: ["ignore", "pipe", "inherit"], detached: true },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("THREEDS_TEST_API_KEY=") && output.includes("\n", output.indexOf("THREEDS_TEST_API_KEY="))) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the sandboxes exited with ${code}`)));
  });
  const keys = ["FINARO_TEST_BASE_URL", "CLEARHAUS_TEST_BASE_URL", "BAMBORA_TEST_BASE_URL", "THREEDS_TEST_SERVER_URL", "THREEDS_TEST_API_KEY"];
  const env = Object.fromEntries(keys.map((key) => [key, new RegExp(`^${key}=(\\S+)$`, "m").exec(output)?.[1] ?? ""]));
  return { child, env };
}

/** Approved authorizations at the Clearhaus sandbox (its public API, as the connector calls it), `count` of them. */
async function authorizeAtSandbox(baseUrl: string, apiKey: string, count: number, amount: number): Promise<string[]> {
  const ids: string[] = [];
  const headers = {
    authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`,
    accept: "application/vnd.clearhaus-gateway.hal+json; version=0.10.0",
    "content-type": "application/x-www-form-urlencoded",
  };
  const body = new URLSearchParams({
    amount: String(amount),
    currency: "DKK",
    "card[pan]": "4111111111111111",
    "card[expire_month]": "12",
    "card[expire_year]": "2030",
    "card[csc]": "987",
  }).toString();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        next++;
        const response = await fetch(`${baseUrl}/authorizations`, { method: "POST", headers, body });
        const answer = (await response.json()) as { id?: string; status?: { code?: number } };
        if (answer.status?.code !== 20000 || !answer.id) throw new Error(`the sandbox did not approve: ${JSON.stringify(answer)}`);
        ids.push(answer.id);
      }
    }),
  );
  return ids;
}

/** A database role per measured process, so that pg_stat_statements counts each one's statements apart. */
async function roleUrl(admin: pg.Client, databaseUrl: string, role: string): Promise<string> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  // Kept between runs (another run's database may hold its rows): created once, then altered.
  const exists = (await admin.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role])).rowCount;
  await admin.query(`${exists ? "ALTER" : "CREATE"} ROLE ${role} LOGIN SUPERUSER${password ? ` PASSWORD '${password.replace(/'/g, "''")}'` : ""}`);
  url.username = role;
  return url.toString();
}

/** One phase of a background floor process (floorPhase). */
interface FloorPhase {
  captures: number;
  notified: number;
  acquirerAnswers: Record<string, number>;
  cpuMsPerCapture: number;
  p50Ms: number;
  p99Ms: number;
  statementsPerCapture: number | undefined;
  statements: string[] | undefined;
}

interface StatementCounts {
  perCapture: Record<string, number>;
  top: Record<string, string[]>;
}

/** Statements per capture of each role since the last reset (undefined without pg_stat_statements). */
async function statementsPerCapture(admin: pg.Client, databaseName: string, roles: string[], captures: number): Promise<StatementCounts | undefined> {
  try {
    const { rows } = await admin.query<{ role: string; calls: string; query: string }>(
      `SELECT r.rolname AS "role", s.calls::text AS "calls", s.query FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
       WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND r.rolname = ANY($2) ORDER BY s.calls DESC`,
      [databaseName, roles],
    );
    const perCapture: Record<string, number> = {};
    const top: Record<string, string[]> = {};
    for (const role of roles) {
      const mine = rows.filter((row) => row.role === role);
      perCapture[role] = Number((mine.reduce((sum, row) => sum + Number(row.calls), 0) / captures).toFixed(2));
      top[role] = mine
        .filter((row) => Number(row.calls) / captures >= 0.05)
        .map((row) => `${(Number(row.calls) / captures).toFixed(2)} ${row.query.replace(/\s+/g, " ").slice(0, 150)}`);
    }
    return { perCapture, top };
  } catch {
    return undefined;
  }
}

async function resetStatements(admin: pg.Client): Promise<boolean> {
  return admin.query(`SELECT pg_stat_statements_reset()`).then(
    () => true,
    () => false,
  );
}

/**
 * The background floor worker (scripts/bench/background-floor.mjs) in its own process, with the
 * services' Node flags (decision 0235). `name` prefixes its CPU profiles (BENCH_CPU_PROF).
 */
async function startFloor(env: Record<string, string>, name = "floor"): Promise<ChildProcess> {
  const nodeArgs = [
    ...SERVICE_NODE_FLAGS,
    ...(CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : []),
  ];
  const child = spawn(process.execPath, [...nodeArgs, path.resolve("scripts/bench/background-floor.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
    env: { ...process.env, ...env },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`the background floor exited with ${code}`)));
  });
  return child;
}

/**
 * Feeds the floor at RATE per second for `seconds`: one INSERT per capture (with its pg_notify, in
 * the same statement), standing in for the web process's capture transaction. Resolves with each
 * job's send time by id (its notification's responseid).
 */
async function floorLoad(
  client: pg.Pool,
  authorizationIds: string[],
  receiverUrl: string,
  seconds: number,
  tables = FLOOR_TABLES,
): Promise<Map<string, number>> {
  const started = new Map<string, number>();
  await openLoop(seconds, () => {
    const authorizationId = authorizationIds.shift();
    if (!authorizationId) throw new Error("ran out of floor authorizations");
    const id = `floor_${randomBytes(10).toString("hex")}`;
    started.set(id, performance.now());
    return client.query(
      `WITH "job" AS (
         INSERT INTO ${tables}_job (id, payment_id, authorization_id, amount, notify_url) VALUES ($1, $2, $3, 1000, $4) RETURNING id)
       SELECT pg_notify('${tables}', id) FROM "job"`,
      [id, `pay_${id}`, authorizationId, receiverUrl],
    );
  });
  return started;
}

interface Throughput {
  /** Requests answered in the phase. */
  answered: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cpuMsPerRequest: Record<string, number>;
  /** Who used the cores during the phase, % of one core (cpuShares). */
  cpuShares: Record<string, number>;
  /** The answers' p50 and max (ms) by the second of the phase they came in. */
  answerBySecond: string[];
}

async function throughput(
  options: autocannon.Options,
  services: Pick<Service, "name" | "child">[],
  machineShares: () => { take(): Record<string, number> },
): Promise<Throughput> {
  const before = services.map((service) => cpuSeconds(service.child.pid as number));
  const shares = machineShares();
  // Each answer's time by the second it came in: whether the p99 is a stall or a spread-out tail.
  const answers: Array<{ atMs: number; ms: number; first: boolean }> = [];
  const clients = new Set<unknown>();
  // The bench's own event loop: autocannon times each answer here, so a stall of this process
  // would read as a slow answer of the web's.
  const benchLoop = monitorEventLoopDelay({ resolution: 10 });
  benchLoop.enable();
  const startedAt = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on("response", (client: unknown, _status: number, _bytes: number, responseTimeMs: number) => {
      answers.push({ atMs: performance.now(), ms: responseTimeMs, first: !clients.has(client) });
      clients.add(client);
    });
  });
  benchLoop.disable();
  const cpuShares = shares.take();
  const answered = Math.max(result.requests.total, 1);
  const summary: Throughput = {
    answered: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMsPerRequest: Object.fromEntries(
      services.map((service, index) => [service.name, Number((((cpuSeconds(service.child.pid as number) - before[index]!) * 1000) / answered).toFixed(2))]),
    ),
    cpuShares,
    answerBySecond: bySecond(answers, startedAt),
  };
  log(
    `  ${summary.requestsPerSecond} req/s, p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, non-2xx ${summary.non2xx}, errors ${summary.errors}, ` +
      `CPU ms/request ${JSON.stringify(summary.cpuMsPerRequest)}, CPU % of one core ${JSON.stringify(cpuShares)}`,
  );
  log(`  answers, p50/max ms by the second they came in: ${summary.answerBySecond.join(" ")}`);
  // The slowest 1% (what the p99 reads): how many were the first answer on their connection.
  const slowest = [...answers].sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(answers.length / 100));
  log(
    `  the slowest 1% (${slowest.length}, from ${Math.round(slowest.at(-1)?.ms ?? 0)} ms): ${slowest.filter((one) => one.first).length} ` +
      `the first answer on their connection; how many came in each second: ${countBySecond(slowest, startedAt)}; ` +
      `the bench's own event loop delayed at most ${Math.round(benchLoop.max / 1e6)} ms (p99 ${Math.round(benchLoop.percentile(99) / 1e6)} ms)`,
  );
  return summary;
}

/** Seeds payments authorized at the sandbox (one approved authorize operation each, as after a real authorization). */
async function seedAuthorizedPayments(options: {
  merchantId: string;
  accountId: string;
  authorizationIds: string[];
  amount: bigint;
}): Promise<string[]> {
  const { db } = await import("../../lib/db");
  const { newId } = await import("../../lib/ids");
  const rows = options.authorizationIds.map((reference) => ({ paymentId: newId(), operationId: newId(), reference }));
  for (let start = 0; start < rows.length; start += 1000) {
    const batch = rows.slice(start, start + 1000);
    await db().payment.createMany({
      data: batch.map((row) => ({
        id: row.paymentId,
        merchantId: options.merchantId,
        mode: "test" as const,
        status: "AUTHORIZED" as const,
        amount: options.amount,
        authorizedAmount: options.amount,
        currency: "DKK",
        processor: "clearhaus" as const,
        acquirerAccountId: options.accountId,
      })),
    });
    await db().operation.createMany({
      data: batch.map((row) => ({
        id: row.operationId,
        paymentId: row.paymentId,
        type: "authorize" as const,
        amount: options.amount,
        currency: "DKK",
        status: "approved" as const,
        processor: "clearhaus" as const,
        acquirerAccountId: options.accountId,
        processorReference: row.reference,
        responseCode: "0000",
      })),
    });
  }
  return rows.map((row) => row.paymentId);
}

const ratio = (value: number, floor: number) => Number((value / floor).toFixed(2));

interface Row {
  target: string;
  value: string;
  floor: string;
  ratio: string;
  /** null: a figure to read the targets by, with no target of its own. */
  pass: boolean | null;
  /** A missed target the run's own floor misses too (lib/capture-verdicts.ts, decision 0236). */
  floorMisses?: string;
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  mkdirSync(DATA_DIR, { recursive: true });
  if (CPU_PROF) mkdirSync(PROFILE_DIR, { recursive: true });
  const admin = benchAdminUrl({ defaultPort: "55560", dataDir: process.env.BENCH_PG_DIR ?? "/tmp/h6-pg" });
  const { url: databaseUrl, name: databaseName } = await migratedBenchDatabase(admin, "cps_bench_inngest_", {
    ...secrets,
    DATA_DIR,
    CPS_LOCAL: "1",
  });
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  await setup.query(`CREATE TABLE bench_floor (id text PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  // The background floor's tables, and the same again for the floor with the SDK call (FLOOR_TABLES).
  for (const tables of [FLOOR_TABLES, SDK_FLOOR_TABLES]) {
    await setup.query(`CREATE TABLE ${tables}_job (
      id text PRIMARY KEY, payment_id text NOT NULL, authorization_id text NOT NULL, amount bigint NOT NULL, notify_url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(), claimed_at timestamptz, status text, response_code int, finished_at timestamptz)`);
    await setup.query(`CREATE INDEX ${tables}_job_unclaimed ON ${tables}_job (created_at, id) WHERE claimed_at IS NULL`);
    await setup.query(`CREATE TABLE ${tables}_attempt (
      id bigserial PRIMARY KEY, job_id text NOT NULL REFERENCES ${tables}_job (id), attempt_number int NOT NULL,
      started_at timestamptz NOT NULL, duration_ms int NOT NULL, status_code int, response_body text)`);
  }
  // The cluster's postmaster (a backend's parent): its descendants are every session's CPU.
  const { rows: backend } = await setup.query<{ pid: number }>(`SELECT pg_backend_pid() AS "pid"`);
  const backendStat = readFileSync(`/proc/${backend[0]!.pid}/stat`, "utf8");
  const postmasterPid = Number(backendStat.slice(backendStat.lastIndexOf(")") + 2).split(" ")[1]);
  await setup.query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`).catch(() => undefined);
  const statementsAvailable = await resetStatements(setup);
  if (!statementsAvailable) log("pg_stat_statements is not preloaded on this server: statements per capture are not counted");
  const roles = { web: "bench_web", worker: "bench_worker", floor: "bench_floor" } as const;
  const urls = {
    web: await roleUrl(setup, databaseUrl, roles.web),
    worker: await roleUrl(setup, databaseUrl, roles.worker),
    floor: await roleUrl(setup, databaseUrl, roles.floor),
  };

  buildIfMissing(DIST_DIR, log, { rebuild: Boolean(process.env.BENCH_REBUILD) });
  workerScriptPath = await workerScript(log, { rebuild: Boolean(process.env.BENCH_REBUILD) });
  // The SDK call the floor makes in its own process (decision 0235), compiled as the worker is.
  const sdkFloorBundle = path.resolve("dist/bench/floor-sdk-call.js");
  await (await import("../build/server-scripts.mjs")).buildScript(process.cwd(), "scripts/bench/lib/floor-sdk-call.ts", sdkFloorBundle);

  const sandbox = await startSandboxProcess();
  const receiver = await startReceiver();
  const { db, disconnectDb } = await import("../../lib/db");
  const { createMerchant } = await import("../../lib/merchants/create-merchant");
  const { CLEARHAUS_SANDBOX_ACCOUNTS } = await import("../../lib/sandboxes/acquirers/clearhaus/accounts");
  const { merchant, apiKey } = await createMerchant({ name: "Bench Shop", withApiKey: true });
  // The sandboxes' first test account at each processor, as the demo merchant has.
  await (await import("../../lib/sandboxes/sandbox-merchant-accounts")).addSandboxAccounts(merchant.id);
  await db().merchant.update({ where: { id: merchant.id }, data: { testDefaultNotificationUrl: receiver.url } });
  if (!apiKey) throw new Error("no API key");
  const account = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId: merchant.id, processor: "clearhaus" }, select: { id: true } });
  const sandboxKey = CLEARHAUS_SANDBOX_ACCOUNTS[0]!.apiKey;
  const clearhausUrl = sandbox.env.CLEARHAUS_TEST_BASE_URL!;

  // Every capture refers to an approved authorization at the sandbox, so the worker calls it as in
  // production (a payment without one is answered without a call). One capture per payment in the
  // latency phases (two captures of one payment would wait for each other's lock); 1-unit captures
  // of a pool in the throughput phase.
  const seedStarted = performance.now();
  const latencyCount = Math.round(RATE * PHASE_S * 2 + WARM_CAPTURES + 200);
  const throughputPool = 2_000;
  const floorCount = Math.round(RATE * PHASE_S + WARM_CAPTURES);
  const [latencyAuthorizations, poolAuthorizations, floorAuthorizations, sdkFloorAuthorizations, jobFloorPool] = [
    await authorizeAtSandbox(clearhausUrl, sandboxKey, latencyCount, 1000),
    await authorizeAtSandbox(clearhausUrl, sandboxKey, throughputPool, 1_000_000),
    await authorizeAtSandbox(clearhausUrl, sandboxKey, floorCount, 1000),
    await authorizeAtSandbox(clearhausUrl, sandboxKey, floorCount, 1000),
    // The job floor's 1-unit captures, as capture's own pool.
    await authorizeAtSandbox(clearhausUrl, sandboxKey, throughputPool, 1_000_000),
  ];
  const paymentIds = await seedAuthorizedPayments({ merchantId: merchant.id, accountId: account.id, authorizationIds: latencyAuthorizations, amount: 1000n });
  const poolIds = await seedAuthorizedPayments({ merchantId: merchant.id, accountId: account.id, authorizationIds: poolAuthorizations, amount: 1_000_000n });
  log(`seeded ${latencyCount + 2 * throughputPool + 2 * floorCount} sandbox authorizations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  // The SDK's share of the Inngest floor, in this process before the services start (nothing else
  // of the bench runs meanwhile). It leaves process.env a plain copy, which the services inherit as before.
  log("one Inngest SDK call of a trivial function, per transport: 2,000 calls each");
  const sdkCalls: SdkCallCosts = await measureSdkCalls(2_000);
  log(`  ${JSON.stringify(sdkCalls)}`);

  const env = { ...secrets, ...sandbox.env, DATA_DIR, CPS_LOCAL: "1" };
  const worker = startService("worker", WORKER_PORT, { ...env, DATABASE_URL: urls.worker });
  const web = startService("web", WEB_PORT, { ...env, DATABASE_URL: urls.web });
  // The floor's stand-in for the web process: INSERTs from a pool (several in flight, as requests are).
  const feeder = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const floorEnv = { FLOOR_DATABASE_URL: urls.floor, FLOOR_ACQUIRER_URL: clearhausUrl, FLOOR_API_KEY: sandboxKey };
  // The plain floor; for the last phase, the floor that makes the SDK call (the Inngest job floor).
  let floor = await startFloor(floorEnv);
  const os = await import("node:os");
  const pgVersion = (await setup.query<{ server_version: string }>(`SHOW server_version`)).rows[0]?.server_version;
  const report: Record<string, unknown> = {
    database: `PostgreSQL ${pgVersion}`,
    build: DIST_DIR,
    processes: "web (ROLE=web, next start) and worker (ROLE=worker, dist/worker.js without Next.js), NODE_ENV=production; sandboxes (scripts/sandbox.ts) and the background floor in processes of their own",
    captureRate: RATE,
    phaseSeconds: PHASE_S,
    idleSeconds: IDLE_S,
    commit: spawnSync("git", ["rev-parse", "--short", "HEAD"]).stdout.toString().trim(),
    host: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
    },
  };
  const rows: Row[] = [];
  const row = (target: string, value: string, pass: boolean | null | Verdict, floorValue = "", ratioValue = "") =>
    rows.push({ target, value, floor: floorValue, ratio: ratioValue, ...(typeof pass === "object" && pass !== null ? pass : { pass }) });
  let quietMemory: QuietMemoryProbe | undefined;
  try {
    await Promise.all([waitForReady(worker), waitForReady(web)]);
    log(`warming up (${WARM_CAPTURES} captures, ${WARM_CAPTURES} floor jobs)`);
    const warm = await captureLoad({ base: web.base, apiKey, paymentIds, seconds: WARM_CAPTURES / RATE });
    const warmFloor = await floorLoad(feeder, floorAuthorizations, receiver.url, WARM_CAPTURES / RATE);
    await waitFor(() => [...warm.started.keys(), ...warmFloor.keys()].every((id) => receiver.attempts.has(id)), 120_000);
    /** The web's and the worker's CPU since `before` (cpuSeconds of each), in ms per capture. */
    const cpuMsPerCaptureSince = (before: number[], captures: number) =>
      Object.fromEntries(
        [web, worker].map((service, index) => [
          service.name,
          Number((((cpuSeconds(service.child.pid as number) - (before[index] as number)) * 1000) / Math.max(captures, 1)).toFixed(2)),
        ]),
      );
    const warmUpEndedAt = Date.now();
    const cpuAtWarmUpEnd = [web, worker].map((service) => cpuSeconds(service.child.pid as number));
    // What the quiet from here to the latency phase costs the machine by itself (decision 0240): as
    // much memory as the worker holds now, left alone as long as the services are left alone.
    const probe = (quietMemory = await startQuietMemoryProbe(residentMegabytes(worker.child.pid as number)));
    // Idle means idle: no event waiting for fan-out and no job but the cron runs' (which come and go).
    const quiet = await waitForQuiet(db, 180_000);
    if (!quiet) log("the warm-up's work did not drain within 180 s: idle CPU includes it");
    await sleep(2_000);
    // A process's first cron round is part of its start, not of its idle (decision 0233): the first
    // call of each cron function compiles its code and Prisma's query plans (about 0.3 s of CPU,
    // once). The idle window begins after it and holds a later round (IDLE_S >= 60: one a minute).
    // The round is found by its events (idempotency key cron:<function>:<time>): the first minute
    // boundary after the worker was ready is not always it (the executor's first pass may come later).
    const firstCronEventAt = async () =>
      (await db().$queryRaw<{ at: Date | null }[]>`SELECT min("receivedAt") AS "at" FROM "InngestEvent" WHERE "idempotencyKey" LIKE 'cron:%'`)[0]?.at ?? null;
    const workerPid = worker.child.pid as number;
    const firstRound = { at: await firstCronEventAt(), cpuBefore: cpuSeconds(workerPid) };
    const watched = firstRound.at === null;
    // Still to come: watched, the worker's CPU read before each look, so that the reading before the
    // look that finds the round precedes it.
    if (watched)
      await waitFor(
        async () => {
          firstRound.at = await firstCronEventAt();
          if (!firstRound.at) firstRound.cpuBefore = cpuSeconds(workerPid);
          return firstRound.at !== null;
        },
        90_000,
        200,
      );
    if (!firstRound.at) log("no cron round within 90 s: the idle window may hold the worker's first");
    else {
      await sleep(firstRound.at.getTime() + FIRST_CRON_ROUND_MS - Date.now());
      const at = firstRound.at.toISOString().slice(11, 19);
      if (!watched) log(`the worker's first cron round was at ${at}, during the warm-up`);
      else {
        const firstRoundCpuMs = Math.round((cpuSeconds(workerPid) - firstRound.cpuBefore) * 1000);
        report.workerFirstCronRoundCpuMs = firstRoundCpuMs;
        log(`the worker's first cron round (at ${at}): ${firstRoundCpuMs} ms of CPU, once per process`);
      }
    }

    // The load's tail is the load's (decision 0238): after a load, V8's memory reducer compacts each
    // heap three times, about 0.65 s apart (150 to 480 ms of a process's CPU in two seconds; 26 to
    // 42 s after the load in the runs read with --trace-gc, at most about 108 s by V8's constants).
    // The window begins after that, and what the processes spent until then is printed, not hidden.
    await sleep(warmUpEndedAt + SETTLE_S * 1000 - Date.now());
    const settleCpuMs = cpuMsPerCaptureSince(cpuAtWarmUpEnd, 1); // all of it: as for one capture
    report.settleCpuMs = settleCpuMs;
    const settledS = Number(((Date.now() - warmUpEndedAt) / 1000).toFixed(1));
    log(`from the warm-up's last notification to the idle window (${settledS} s; the worker's first cron round included if it fell there): CPU ms ${JSON.stringify(settleCpuMs)}`);
    log(`idle CPU over ${IDLE_S} s, from ${new Date().toISOString().slice(11, 19)}: ${settledS} s after the warm-up's last notification`);
    const { percent: idle, busiestSeconds, byThread } = await idleCpu([web, worker], IDLE_S);
    report.idleCpuPercentOfCore = idle;
    report.idleBusiestSeconds = busiestSeconds;
    report.idleCpuByThread = byThread;
    log(`  idle CPU, % of one core: ${JSON.stringify(idle)}; the busiest seconds (CPU in each): ${JSON.stringify(busiestSeconds)}`);
    log(`  idle CPU by thread, % of one core: ${JSON.stringify(byThread)}`);
    for (const [name, percent] of Object.entries(idle))
      row(`idle CPU of ${name} < ${TARGETS.idleCpuPercent}% of a core (${IDLE_S} s, from ${settledS} s after the warm-up)`, `${percent}%`, percent < TARGETS.idleCpuPercent);

    /** One floor process fed at RATE for PHASE_S: its CPU per capture, latency, statements and answers. */
    const floorPhase = async (child: ChildProcess, authorizations: string[], tables: string): Promise<FloorPhase> => {
      await resetStatements(setup);
      const cpuBefore = cpuSeconds(child.pid!);
      const started = await floorLoad(feeder, authorizations, receiver.url, PHASE_S, tables);
      await waitFor(() => [...started.keys()].every((id) => receiver.attempts.has(id)), 60_000);
      await sleep(200); // its last attempts' records
      const cpuMs = ((cpuSeconds(child.pid!) - cpuBefore) * 1000) / started.size;
      const latencies = [...started].flatMap(([id, sentAt]) => {
        const first = receiver.attempts.get(id)?.[0];
        return first ? [first.arrivedAt - sentAt] : [];
      });
      const statements = await statementsPerCapture(setup, databaseName, [roles.floor], started.size);
      const answers = await setup.query<{ status: string; count: number }>(`SELECT status, count(*)::int AS count FROM ${tables}_job GROUP BY 1`);
      return {
        captures: started.size,
        notified: latencies.length,
        acquirerAnswers: Object.fromEntries(answers.rows.map((answer) => [answer.status ?? "unclaimed", answer.count])),
        cpuMsPerCapture: Number(cpuMs.toFixed(2)),
        p50Ms: Math.round(percentile(latencies, 50)),
        p99Ms: Math.round(percentile(latencies, 99)),
        statementsPerCapture: statements?.perCapture[roles.floor],
        statements: statements?.top[roles.floor],
      };
    };

    // 1. The background floor alone, at the same rate.
    log(`background floor at ${RATE}/s for ${PHASE_S} s`);
    const backgroundFloor = await floorPhase(floor, floorAuthorizations, FLOOR_TABLES);
    report.backgroundFloor = backgroundFloor;
    log(`background floor: ${JSON.stringify(backgroundFloor)}`);
    report.sdkCalls = sdkCalls;

    // 1b. The Inngest floor as one process (decision 0235): the background floor making the SDK
    // call inside each job, so that the call runs as it runs in a worker (among the job's I/O, its
    // caches shared, the SDK's async context hooks on for every promise of the process) instead of
    // alone in a loop. Started for this phase only, warmed up as the other floor was.
    log(`the background floor with one SDK call per job in its process, at ${RATE}/s for ${PHASE_S} s (warm-up ${WARM_CAPTURES} jobs)`);
    const sdkFloor = await startFloor({
      ...floorEnv,
      FLOOR_TABLES: SDK_FLOOR_TABLES,
      FLOOR_SDK_BUNDLE: sdkFloorBundle,
    }, "sdkfloor");
    let sdkFloorPhase: FloorPhase;
    try {
      const warmSdkFloor = await floorLoad(feeder, sdkFloorAuthorizations, receiver.url, WARM_CAPTURES / RATE, SDK_FLOOR_TABLES);
      await waitFor(() => [...warmSdkFloor.keys()].every((id) => receiver.attempts.has(id)), 60_000);
      await sleep(2_000);
      sdkFloorPhase = await floorPhase(sdkFloor, sdkFloorAuthorizations, SDK_FLOOR_TABLES);
    } finally {
      await stopChild(sdkFloor);
    }
    const inngestFloor = {
      // The floor as one process: the SDK call made in each job (decision 0235).
      cpuMsPerCapture: sdkFloorPhase.cpuMsPerCapture,
      // What the call adds there, against the plain floor's CPU per capture in its own phase.
      sdkCallInProcessCpuMs: Number((sdkFloorPhase.cpuMsPerCapture - backgroundFloor.cpuMsPerCapture).toFixed(2)),
      oneProcess: sdkFloorPhase,
      // The reading before decision 0235: the plain floor plus the call alone in a loop.
      summed: {
        cpuMsPerCapture: Number((backgroundFloor.cpuMsPerCapture + sdkCalls.directPlainEnv.cpuMsPerCall).toFixed(2)),
        backgroundFloorCpuMs: backgroundFloor.cpuMsPerCapture,
        sdkCallCpuMs: sdkCalls.directPlainEnv.cpuMsPerCall,
      },
    };
    report.inngestFloor = inngestFloor;
    log(`Inngest floor: ${JSON.stringify(inngestFloor)}`);

    // 2. The service at the same rate.
    const quietMemoryReading = await probe.touch();
    probe.stop();
    const untouchedS = Math.round((Date.now() - warmUpEndedAt) / 1000);
    report.quietMemory = { ...quietMemoryReading, untouchedS };
    log(
      `memory left untouched since the warm-up (${quietMemoryReading.megabytes} MB, the worker's resident set then; a probe process, decision 0240): ` +
        `touching it again after ${untouchedS} s took ${quietMemoryReading.firstMs} ms, and ${quietMemoryReading.againMs} ms right after`,
    );
    log(`capture -> notification at ${RATE}/s for ${PHASE_S} s`);
    await resetStatements(setup);
    const cpuBefore = [web, worker].map((service) => cpuSeconds(service.child.pid as number));
    // Who used the cores from now on: the services, PostgreSQL, the sandboxes and the bench itself
    // (the load generator, the notification receiver and this script's own database client).
    const machineShares = () =>
      cpuShares({
        web: () => cpuSeconds(web.child.pid as number),
        worker: () => cpuSeconds(worker.child.pid as number),
        postgres: () => cpuSeconds(postmasterPid),
        sandboxes: () => cpuSeconds(sandbox.child.pid as number),
        backgroundFloor: () => cpuSeconds(floor.pid as number),
        bench: () => {
          const usage = process.cpuUsage();
          return (usage.user + usage.system) / 1e6;
        },
      });
    const shares = machineShares();
    /** The web's and the worker's statements per capture, by service. */
    const perService = (counts: StatementCounts | undefined) => counts && { web: counts.perCapture[roles.web], worker: counts.perCapture[roles.worker] };
    const loadStarted = performance.now();
    const latencyPhase = await captureLoad({ base: web.base, apiKey, paymentIds, seconds: PHASE_S });
    const cpuSharesUnderLoad = shares.take();
    log(`CPU under the load, % of one core (2 cores = 200): ${JSON.stringify(cpuSharesUnderLoad)}`);
    log(`capture answers, p50/max ms by the second they were sent in: ${latencyPhase.answerBySecond.join(" ")}`);
    await waitFor(() => [...latencyPhase.started.keys()].every((id) => receiver.attempts.has(id)), 120_000);
    // CPU per capture, from the phase's start until its work drained: unlike CPU per second under
    // load, this does not depend on whether the process kept up or how many cores it was given.
    const drained = await waitForQuiet(db, 120_000);
    const cpuMsPerCapture = cpuMsPerCaptureSince(cpuBefore, latencyPhase.started.size);
    log(`CPU ms per capture (phase start to drained${drained ? "" : ", NOT drained within 120 s"}): ${JSON.stringify(cpuMsPerCapture)}`);
    const serviceStatements = await statementsPerCapture(setup, databaseName, [roles.web, roles.worker], Math.max(latencyPhase.started.size, 1));
    const latencies: number[] = [];
    let missing = 0;
    const notified: Array<{ atMs: number; ms: number }> = [];
    for (const [id, sentAt] of latencyPhase.started) {
      const first = receiver.attempts.get(id)?.[0];
      if (first) {
        latencies.push(first.arrivedAt - sentAt);
        notified.push({ atMs: sentAt, ms: first.arrivedAt - sentAt });
      } else missing++;
    }
    log(
      `capture -> notification, p50/max ms by the second the capture was sent in: ${bySecond(notified, Math.min(...latencyPhase.started.values())).join(" ")}`,
    );
    const latency = {
      captures: latencyPhase.sent,
      refused: latencyPhase.failures,
      refusals: latencyPhase.refusals,
      acceptedPerSecond: latencyPhase.acceptedPerSecond,
      captureAnswerMs: latencyPhase.captureAnswerMs,
      notified: latencies.length,
      missing,
      p50Ms: Math.round(percentile(latencies, 50)),
      p90Ms: Math.round(percentile(latencies, 90)),
      p99Ms: Math.round(percentile(latencies, 99)),
      maxMs: Math.round(Math.max(...latencies)),
      cpuMsPerCapture,
      cpuSharesUnderLoad,
      // The web's and worker's shares, under the name earlier reports used.
      cpuPercentOfCoreUnderLoad: { web: cpuSharesUnderLoad.web, worker: cpuSharesUnderLoad.worker },
      statementsPerCapture: perService(serviceStatements),
      statements: serviceStatements && { web: serviceStatements.top[roles.web], worker: serviceStatements.top[roles.worker] },
    };
    // The executor's own share: from the capture's event being stored (web process) to its run
    // starting in the worker, both stamped on the same machine's clock.
    const pickups = await db().$queryRaw<{ ms: number }[]>`
      SELECT (EXTRACT(EPOCH FROM (r."startedAt" - e."receivedAt")) * 1000)::float8 AS "ms"
      FROM "InngestRun" r JOIN "InngestEvent" e ON e."id" = r."eventId"
      WHERE r."functionId" LIKE '%run-follow-up-operation' AND e."receivedAt" >= ${new Date(Date.now() - (performance.now() - loadStarted) - 1_000)}`;
    const pickupMs = pickups.map((pickup) => Number(pickup.ms));
    report.eventToRunStart = {
      runs: pickupMs.length,
      p50Ms: Math.round(percentile(pickupMs, 50)),
      p99Ms: Math.round(percentile(pickupMs, 99)),
      maxMs: Math.round(Math.max(...pickupMs)),
    };
    report.captureToNotification = latency;
    const complete = latency.refused === 0 && latency.missing === 0;
    log(`event stored -> run started in the worker: ${JSON.stringify(report.eventToRunStart)}`);
    const workerCpu = cpuMsPerCapture.worker as number;
    // The target reads against the Inngest floor as one process (decision 0235); the sum of the
    // plain floor and the call alone in a loop, the reading before it, stays beside it.
    row(
      `worker CPU per capture ≤ ${TARGETS.workerCpuToFloor} × the Inngest floor's (the background floor making one direct SDK call in each job, one process)`,
      `${workerCpu} ms`,
      workerCpu <= TARGETS.workerCpuToFloor * inngestFloor.cpuMsPerCapture,
      `${inngestFloor.cpuMsPerCapture} ms (${backgroundFloor.cpuMsPerCapture} + the call's ${inngestFloor.sdkCallInProcessCpuMs})`,
      `${ratio(workerCpu, inngestFloor.cpuMsPerCapture)}`,
    );
    row(
      `worker CPU per capture against the sum of the background floor and the SDK call alone in a loop (the reading before decision 0235; no target)`,
      `${workerCpu} ms`,
      null,
      `${inngestFloor.summed.cpuMsPerCapture} ms (${backgroundFloor.cpuMsPerCapture} + ${sdkCalls.directPlainEnv.cpuMsPerCall})`,
      `${ratio(workerCpu, inngestFloor.summed.cpuMsPerCapture)}`,
    );
    const statements = latency.statementsPerCapture;
    if (statements?.worker !== undefined && statements.web !== undefined) {
      row(
        `worker SQL statements per capture ≤ ${TARGETS.workerStatements}`,
        `${statements.worker}`,
        statements.worker <= TARGETS.workerStatements,
        `${backgroundFloor.statementsPerCapture ?? "n/a"}`,
        backgroundFloor.statementsPerCapture ? `${ratio(statements.worker, backgroundFloor.statementsPerCapture)}` : "",
      );
      row(`web SQL statements per capture ≤ ${TARGETS.webStatements}`, `${statements.web}`, statements.web <= TARGETS.webStatements, "1 (INSERT ... pg_notify)", `${statements.web}`);
    }
    row(
      `capture → notification p50 < ${TARGETS.latencyP50Ms} ms at ${RATE}/s, every capture accepted`,
      // How busy the machine was beside it: on a machine the phase fills (97 to 99% of both cores on
      // the AMD EPYC of docs/performance.md), the latency measures the machine's capacity.
      `${latency.p50Ms} ms (${latency.captures - latency.refused}/${latency.captures} accepted, ${latency.notified} notified; the machine ${cpuSharesUnderLoad.machineBusyPercentOfAllCores}% busy)`,
      complete && latency.p50Ms < TARGETS.latencyP50Ms,
      `${backgroundFloor.p50Ms} ms`,
      `${ratio(latency.p50Ms, backgroundFloor.p50Ms)}`,
    );
    row(
      `capture → notification p99 < ${TARGETS.latencyP99Ms} ms at ${RATE}/s`,
      `${latency.p99Ms} ms`,
      complete && latency.p99Ms < TARGETS.latencyP99Ms,
      `${backgroundFloor.p99Ms} ms`,
      `${ratio(latency.p99Ms, backgroundFloor.p99Ms)}`,
    );
    row(
      `memory left untouched from the warm-up to the latency phase, touched again (the worker's resident set then, in a probe process; no target: what the quiet costs the machine, decision 0240)`,
      `${quietMemoryReading.firstMs} ms for ${quietMemoryReading.megabytes} MB after ${untouchedS} s`,
      null,
      `${quietMemoryReading.againMs} ms (right after)`,
      `${ratio(quietMemoryReading.firstMs, quietMemoryReading.againMs)}`,
    );
    if (!(await waitForQuiet(db, 120_000))) log("the latency phase's work did not drain within 120 s");

    // 3. Retries under the same load.
    log(`retry schedule: first attempt answered 500, captures at ${RATE}/s for ${PHASE_S} s`);
    receiver.failFirst = true;
    await resetStatements(setup);
    const retryCpuBefore = [web, worker].map((service) => cpuSeconds(service.child.pid as number));
    const retryShares = machineShares();
    const retryPhase = await captureLoad({ base: web.base, apiKey, paymentIds, seconds: PHASE_S });
    await waitFor(() => [...retryPhase.started.keys()].every((id) => (receiver.attempts.get(id)?.length ?? 0) >= 2), 90_000);
    // From the phase's start until every second attempt came: the captures and their retries.
    const retryCpuShares = retryShares.take();
    log(`CPU while the captures and their retries ran, % of one core: ${JSON.stringify(retryCpuShares)}`);
    receiver.failFirst = false;
    // What a capture whose first notification is refused costs, its retry included (phase start
    // until drained), against the latency phase's capture notified at once.
    const retryDrained = await waitForQuiet(db, 120_000);
    const retryCaptures = Math.max(retryPhase.started.size, 1);
    const retryCpuMsPerCapture = cpuMsPerCaptureSince(retryCpuBefore, retryCaptures);
    const retryStatements = await statementsPerCapture(setup, databaseName, [roles.web, roles.worker], retryCaptures);
    log(
      `a capture with a refused first notification and its retry${retryDrained ? "" : " (NOT drained within 120 s)"}: CPU ms ${JSON.stringify(retryCpuMsPerCapture)}, statements ${JSON.stringify(perService(retryStatements))}`,
    );
    if (retryStatements) log(`  the worker's statements: ${JSON.stringify(retryStatements.top[roles.worker])}`);
    const gaps: number[] = [];
    // Whether a late retry is a backlog (lateness growing through the phase) or a constant delay:
    // the gaps' p50 by the second of the phase in which the first attempt failed.
    const timedGaps: Array<{ atMs: number; ms: number }> = [];
    let noRetry = 0;
    for (const id of retryPhase.started.keys()) {
      const [first, second] = receiver.attempts.get(id) ?? [];
      if (first?.status === 500 && second) {
        gaps.push(second.arrivedAt - first.answeredAt);
        timedGaps.push({ atMs: first.answeredAt, ms: second.arrivedAt - first.answeredAt });
      } else noRetry++;
    }
    const phaseStart = Math.min(...[...retryPhase.started.keys()].map((id) => receiver.attempts.get(id)?.[0]?.answeredAt ?? Infinity));
    const gapP50BySecond = bySecond(timedGaps, phaseStart, false);
    log(`retry gap p50 (ms) by the second of the phase the first attempt failed in: ${gapP50BySecond.join(" ")}`);
    const inWindow = gaps.filter((gap) => gap >= TARGETS.retryMinMs && gap <= TARGETS.retryMaxMs).length;
    // A retry outside the window, as the receiver saw each attempt of its notification (ms from the
    // first attempt's arrival): an early one and a late one read differently (a duplicate first
    // attempt, a clock step, a queue).
    const outside = [...retryPhase.started.keys()].flatMap((id) => {
      const seen = receiver.attempts.get(id) ?? [];
      const [first, second] = seen;
      if (!first || !second) return [];
      const gap = second.arrivedAt - first.answeredAt;
      if (gap >= TARGETS.retryMinMs && gap <= TARGETS.retryMaxMs) return [];
      return [{ responseid: id, gapMs: Math.round(gap), attempts: seen.map((a) => `${a.status} ${Math.round(a.arrivedAt - first.arrivedAt)}..${Math.round(a.answeredAt - first.arrivedAt)}`) }];
    });
    for (const retry of outside.slice(0, 5)) {
      // And as the executor saw its second attempt's event: when it was stored, fanned out, due (its
      // ts) and started, in ms from 3 s before its due time (the worker's clock when it recorded the
      // refusal, give or take the millisecond the due time is rounded up by).
      const rows = await db().$queryRaw<Record<string, number | null>[]>`
        SELECT (extract(epoch FROM e."receivedAt") * 1000)::float8 AS "stored", (extract(epoch FROM e."fannedOutAt") * 1000)::float8 AS "fannedOut",
          (e."payload"->>'ts')::float8 AS "due", (extract(epoch FROM r."startedAt") * 1000)::float8 AS "runStarted",
          (extract(epoch FROM a."startedAt") * 1000)::float8 AS "attemptStarted"
        FROM "Notification" n
        JOIN "InngestEvent" e ON e."payload"->'data'->>'notificationId' = n."id" AND e."payload"->'data'->>'fromAttempt' = '2'
        LEFT JOIN "InngestRun" r ON r."eventId" = e."id"
        LEFT JOIN "NotificationAttempt" a ON a."notificationId" = n."id" AND a."attemptNumber" = 2
        WHERE n."body"::jsonb->>'responseid' = ${retry.responseid}
        LIMIT 1`.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (rows instanceof Error) {
        Object.assign(retry, { executor: { error: rows.message } });
        continue;
      }
      const [seen] = rows;
      const origin = seen?.due === null || seen?.due === undefined ? 0 : seen.due - 3_000;
      Object.assign(retry, {
        executor: seen && Object.fromEntries(Object.entries(seen).map(([key, value]) => [key, value === null ? null : Math.round(value - origin)])),
      });
    }
    if (outside.length > 0) log(`retries outside the window (the first ${Math.min(outside.length, 5)}): ${JSON.stringify(outside.slice(0, 5))}`);
    const retry = {
      captures: retryPhase.sent,
      refused: retryPhase.failures,
      refusals: retryPhase.refusals,
      acceptedPerSecond: retryPhase.acceptedPerSecond,
      captureAnswerMs: retryPhase.captureAnswerMs,
      retried: gaps.length,
      withoutSecondAttempt: noRetry,
      inWindow,
      minMs: Math.round(Math.min(...gaps)),
      p50Ms: Math.round(percentile(gaps, 50)),
      p99Ms: Math.round(percentile(gaps, 99)),
      maxMs: Math.round(Math.max(...gaps)),
      gapP50BySecond,
      outsideWindow: outside.slice(0, 5),
      cpuSharesWhileRetrying: retryCpuShares,
      cpuMsPerCapture: retryCpuMsPerCapture,
      statementsPerCapture: perService(retryStatements),
      statements: retryStatements && { worker: retryStatements.top[roles.worker] },
    };
    report.retryGap = retry;
    row(
      `every 3 s retry attempted ${TARGETS.retryMinMs / 1000}–${TARGETS.retryMaxMs / 1000} s after the failed attempt, at ${RATE}/s`,
      `${inWindow}/${retry.captures} in window (p50 ${retry.p50Ms} ms, p99 ${retry.p99Ms} ms, max ${retry.maxMs} ms)`,
      retry.refused === 0 && noRetry === 0 && inWindow === retry.captures,
    );

    // 4. Throughput against the Next.js + INSERT floor (the merchant-api bench's), same build, same process.
    const floorBody = JSON.stringify({ merchantid: merchant.id, amount: 12500, currency: "DKK", reference: "Bench order", notificationurl: receiver.url });
    const jsonHeaders = { "content-type": "application/json" };
    let nextPool = 0;
    const captureRequest = {
      method: "POST" as const,
      headers: { ...jsonHeaders, authorization: `Basic ${apiKey}` },
      requests: [
        {
          setupRequest: (request: autocannon.Request) => ({ ...request, path: `/api/${poolIds[nextPool++ % poolIds.length]}/capture`, body: JSON.stringify({ amount: 1 }) }),
        },
      ],
    };
    const warmFor = { connections: CONNECTIONS, duration: 3 };
    log(`throughput: Next.js + INSERT floor, ${CONNECTIONS} connections, ${DURATION_S} s (3 s warm-up)`);
    await autocannon({ url: `${web.base}/api/bench-floor/insert`, method: "POST", headers: jsonHeaders, body: floorBody, ...warmFor });
    const insertFloor = await throughput({ url: `${web.base}/api/bench-floor/insert`, method: "POST", headers: jsonHeaders, body: floorBody }, [web], machineShares);
    // The job floor: the same handler and INSERT with the background floor working off every row
    // (a job row and its pg_notify in one statement, claimed, the sandbox called, the notification
    // posted): what a capture with its background work costs at least when both share the machine.
    let nextJob = 0;
    const jobRequest = {
      method: "POST" as const,
      headers: jsonHeaders,
      requests: [
        {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            path: "/api/bench-floor/job",
            body: JSON.stringify({ authorization: jobFloorPool[nextJob++ % jobFloorPool.length], notificationurl: receiver.url }),
          }),
        },
      ],
    };
    const floorJobCounts = async () =>
      (await setup.query<{ all: number; finished: number }>(`SELECT count(*)::int AS "all", count(finished_at)::int AS "finished" FROM bench_floor_job`)).rows[0]!;
    const floorDrained = (timeoutMs: number) =>
      waitFor(async () => {
        const counts = await floorJobCounts();
        return counts.all === counts.finished;
      }, timeoutMs, 200);
    /** The job floor's phase with `floor` working off the rows: its throughput and how much of the work was done within it. */
    const jobFloorPhase = async () => {
      await autocannon({ url: web.base, ...jobRequest, ...warmFor });
      if (!(await floorDrained(120_000))) log("the job floor's warm-up did not drain within 120 s");
      const jobsBefore = await floorJobCounts();
      const result = await throughput({ url: web.base, ...jobRequest }, [web, { name: "backgroundFloor", child: floor }], machineShares);
      const jobsAtEnd = await floorJobCounts();
      const keptUp = { answered: jobsAtEnd.all - jobsBefore.all, doneInPhase: jobsAtEnd.finished - jobsBefore.finished };
      log(`  background work done within the phase: ${JSON.stringify(keptUp)}`);
      if (!(await floorDrained(120_000))) log("the job floor's phase did not drain within 120 s");
      return { result, keptUp };
    };
    log(`throughput: the job floor (Next.js + INSERT with the background floor working off each row), ${CONNECTIONS} connections, ${DURATION_S} s (3 s warm-up)`);
    const { result: jobFloor, keptUp: jobFloorKeptUp } = await jobFloorPhase();

    log(`throughput: POST /api/{paymentid}/capture, ${CONNECTIONS} connections, ${DURATION_S} s (3 s warm-up), worker running`);
    await autocannon({ url: web.base, ...captureRequest, ...warmFor });
    if (!(await waitForQuiet(db, 120_000))) log("capture's warm-up did not drain within 120 s");
    const notifiedBefore = receiver.attempts.size;
    const capture = await throughput({ url: web.base, ...captureRequest }, [web, worker], machineShares);
    const captureKeptUp = { answered: capture.answered, notifiedInPhase: receiver.attempts.size - notifiedBefore };
    log(`  background work done within the phase: ${JSON.stringify(captureKeptUp)}`);
    // The Inngest job floor (decision 0235): the job floor again, each row worked off by the floor
    // that makes one SDK call per job (the same tables; the plain floor stopped first).
    log(`throughput: the Inngest job floor (the job floor, its rows worked off with one SDK call each), ${CONNECTIONS} connections, ${DURATION_S} s (3 s warm-up)`);
    await stopChild(floor);
    floor = await startFloor({ ...floorEnv, FLOOR_SDK_BUNDLE: sdkFloorBundle }, "sdkfloor");
    const { result: inngestJobFloor, keptUp: inngestJobFloorKeptUp } = await jobFloorPhase();
    report.throughput = {
      connections: CONNECTIONS,
      seconds: DURATION_S,
      nextInsertFloor: insertFloor,
      jobFloor,
      jobFloorKeptUp,
      capture,
      captureKeptUp,
      inngestJobFloor,
      inngestJobFloorKeptUp,
    };
    row(
      `the job floor: Next.js + INSERT with the background floor working off each row (${CONNECTIONS} connections; no target: the least a capture with its background work costs here)`,
      `${jobFloor.requestsPerSecond} req/s, p99 ${jobFloor.p99Ms} ms (background work done in the phase: ${jobFloorKeptUp.doneInPhase} of ${jobFloorKeptUp.answered})`,
      null,
      `${insertFloor.requestsPerSecond} req/s, p99 ${insertFloor.p99Ms} ms`,
      `${ratio(jobFloor.requestsPerSecond, insertFloor.requestsPerSecond)} (p99 ${ratio(jobFloor.p99Ms, insertFloor.p99Ms)})`,
    );
    const answeredOk = capture.non2xx === 0 && capture.errors === 0;
    // Read against the Inngest job floor of this run as well: UNREACHABLE when it misses them too.
    const captureVerdict = captureVerdicts({ insertFloor, inngestJobFloor, capture }, TARGETS);
    row(
      `capture throughput ≥ ${TARGETS.throughputToFloor} × the Next.js + INSERT floor's (${CONNECTIONS} connections)`,
      `${capture.requestsPerSecond} req/s${answeredOk ? "" : ` (${capture.non2xx} non-2xx, ${capture.errors} errors)`}`,
      captureVerdict.throughput,
      `${insertFloor.requestsPerSecond} req/s`,
      `${ratio(capture.requestsPerSecond, insertFloor.requestsPerSecond)}`,
    );
    row(
      `capture p99 ≤ ${TARGETS.p99ToFloor} × the floor's p99 (${CONNECTIONS} connections)`,
      `${capture.p99Ms} ms`,
      captureVerdict.p99,
      `${insertFloor.p99Ms} ms`,
      `${ratio(capture.p99Ms, insertFloor.p99Ms)}`,
    );
    row(
      `capture against the job floor (${CONNECTIONS} connections; no target)`,
      `${capture.requestsPerSecond} req/s, p99 ${capture.p99Ms} ms (notified in the phase: ${captureKeptUp.notifiedInPhase} of ${captureKeptUp.answered})`,
      null,
      `${jobFloor.requestsPerSecond} req/s, p99 ${jobFloor.p99Ms} ms`,
      `${ratio(capture.requestsPerSecond, jobFloor.requestsPerSecond)} (p99 ${ratio(capture.p99Ms, jobFloor.p99Ms)})`,
    );
    row(
      `the Inngest job floor: the job floor with one SDK call in each row's background work (${CONNECTIONS} connections; no target, decision 0235)`,
      `${inngestJobFloor.requestsPerSecond} req/s, p99 ${inngestJobFloor.p99Ms} ms (background work done in the phase: ${inngestJobFloorKeptUp.doneInPhase} of ${inngestJobFloorKeptUp.answered})`,
      null,
      `${insertFloor.requestsPerSecond} req/s, p99 ${insertFloor.p99Ms} ms`,
      `${ratio(inngestJobFloor.requestsPerSecond, insertFloor.requestsPerSecond)} (p99 ${ratio(inngestJobFloor.p99Ms, insertFloor.p99Ms)})`,
    );
    row(
      `capture against the Inngest job floor (${CONNECTIONS} connections; no target)`,
      `${capture.requestsPerSecond} req/s, p99 ${capture.p99Ms} ms`,
      null,
      `${inngestJobFloor.requestsPerSecond} req/s, p99 ${inngestJobFloor.p99Ms} ms`,
      `${ratio(capture.requestsPerSecond, inngestJobFloor.requestsPerSecond)} (p99 ${ratio(capture.p99Ms, inngestJobFloor.p99Ms)})`,
    );
  } finally {
    quietMemory?.stop();
    await Promise.all([web.stop(), worker.stop(), stopChild(floor), stopChild(sandbox.child)]);
    await receiver.close();
    await disconnectDb();
    await feeder.end();
    await setup.end();
    // BENCH_KEEP_DATABASE=1 keeps it for a look at the rows' timestamps afterwards.
    if (process.env.BENCH_KEEP_DATABASE === "1") log(`database kept: ${databaseUrl}`);
    else await dropBenchDatabase(admin, databaseUrl).catch(() => {});
  }
  report.results = rows;
  report.minutes = Number(((performance.now() - benchStarted) / 60_000).toFixed(1));
  (report.host as Record<string, unknown>).loadAtEnd = (await import("node:os")).loadavg().map((n) => Number(n.toFixed(2)));
  if (CPU_PROF) {
    const summaries: Record<string, ProfileSummary> = {};
    for (const name of ["web", "worker", "floor", "sdkfloor"]) summaries[name] = summarizeProfiles(PROFILE_DIR, DIST_DIR, (file) => file.startsWith(`${name}-`), 25);
    report.profiles = summaries;
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, "inngest.json"), JSON.stringify(report, null, 2));
  console.log(JSON.stringify(report, null, 2));
  if (CPU_PROF) log(`CPU profiles in ${PROFILE_DIR}`);
  const host = report.host as { cpus: number; model: string; memoryGiB: number; node: string; loadAtStart: number[]; loadAtEnd: number[] };
  console.log(`
### npm run bench -- inngest (${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${report.commit}, ${report.minutes} min)

Machine: ${host.cpus} × ${host.model}, ${host.memoryGiB} GiB, Node ${host.node}, ${report.database}; load average ${host.loadAtStart[0]} at the start, ${host.loadAtEnd[0]} at the end.
Web: next start; worker: dist/worker.js, without Next.js (decision 0219); NODE_ENV=production; separate processes; sandboxes and the background floor in processes of their own.${CPU_PROF ? " **Profiled run (--cpu-prof): figures are slowed by the profiler.**" : ""}

| target | this run | floor (same run) | ratio to floor | verdict |
|---|---|---|---|---|
${rows.map((one) => `| ${one.target} | ${one.value} | ${one.floor} | ${one.ratio} | ${verdictText(one)} |`).join("\n")}
`);
  const lat = report.captureToNotification as
    | { cpuMsPerCapture: Record<string, number>; statementsPerCapture?: Record<string, number>; cpuSharesUnderLoad?: Record<string, number> }
    | undefined;
  const bf = report.backgroundFloor as { cpuMsPerCapture: number; statementsPerCapture?: number } | undefined;
  if (lat && bf)
    console.log(
      `CPU per capture (ms): web ${lat.cpuMsPerCapture.web}, worker ${lat.cpuMsPerCapture.worker}, background floor ${bf.cpuMsPerCapture}. ` +
        `SQL statements per capture: web ${lat.statementsPerCapture?.web ?? "n/a"}, worker ${lat.statementsPerCapture?.worker ?? "n/a"}, background floor ${bf.statementsPerCapture ?? "n/a"}. ` +
        `One Inngest SDK call of a trivial function (ms CPU per call, ${sdkCalls.environmentVariables} environment variables): serve() with a signed Request ${sdkCalls.serve.cpuMsPerCall}, ` +
        `the comm handler directly ${sdkCalls.direct.cpuMsPerCall}, directly with process.env a plain object ${sdkCalls.directPlainEnv.cpuMsPerCall} ` +
        `(in a loop; made in each job of the background floor's process it added ${(report.inngestFloor as { sdkCallInProcessCpuMs?: number } | undefined)?.sdkCallInProcessCpuMs ?? "n/a"} ms per capture: decision 0235). ` +
        `Worker CPU per capture against the bare background floor: ${ratio(lat.cpuMsPerCapture.worker as number, bf.cpuMsPerCapture)} ×.`,
    );
  const shares = lat?.cpuSharesUnderLoad;
  if (shares)
    console.log(
      `\nCPU while captures came at ${RATE}/s (% of one core; the machine has ${host.cpus}): ` +
        Object.entries(shares)
          .filter(([name]) => name !== "machineBusyPercentOfAllCores")
          .map(([name, percent]) => `${name} ${percent}`)
          .join(", ") +
        `; the machine was busy ${shares.machineBusyPercentOfAllCores}% of all its cores.`,
    );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
