// Starts the real service as a child process, the way an operator does (`scripts/start.ts`, a Next
// production build), for tests that need the whole stack: Next's own routing and headers, a
// production start, a `kill -9` or a SIGTERM. Each process runs in its own process group, and
// stop()/kill9() signal only that group: a test never ends a process it did not start.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, existsSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { checkNextBuild } from "../../scripts/build/freshness.mjs";
import { eventually } from "./eventually";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
/**
 * What `npm start` and `npm run cli` run (package.json): a script compiled by `npm run build` when
 * it is current (under npm test it is), else its TypeScript source through tsx. Tests start the
 * service and the CLI through it, as an operator's npm script does.
 */
export const RUN_SCRIPT = path.join(ROOT, "scripts/run-script.mjs");

/** The command and arguments of `npm run <name> -- ...args` without npm: node scripts/run-script.mjs <name> ...args. */
export function npmScript(name: "start" | "cli", args: readonly string[] = []): [string, string[]] {
  return [process.execPath, [RUN_SCRIPT, name, ...args]];
}
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
/** The build every suite shares: `npm run build`'s (scripts/test.sh and .ci/run make it once, first). */
export const DEFAULT_DIST_DIR = process.env.NEXT_DIST_DIR || ".next";

export interface ServiceProcess {
  baseUrl: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** What it wrote to stdout alone. */
  stdout(): string;
  /** Sends `signal` to the process group and waits for the exit; SIGKILL after `timeoutMs`. Resolves to the exit code (null when killed). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  /** `kill -9` of the whole process group, as a crash would. */
  kill9(): Promise<void>;
}

export interface StartServiceOptions {
  /** Extra environment (DATABASE_URL, NODE_ENV, secrets ...). */
  env?: Record<string, string | undefined>;
  /** Data folder for the embedded database and local secrets; default a fresh one under .data-test/. */
  dataDir?: string;
  /** The Next build folder; default NEXT_DIST_DIR or `.next`, the one `npm run build` makes (built once, shared by every suite). */
  distDir?: string;
  /** Port; default a free one. */
  port?: number;
  /** The script to run; default scripts/start.ts. */
  script?: string;
  args?: string[];
  /** What to wait for: an answer from GET /api/health (any status), a 200 from it, or nothing. */
  waitFor?: "answer" | "healthy" | "none";
  timeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Makes sure the production build in `distDir` is current before a test starts the service on it.
 * Under `npm test` (scripts/test.sh built once and set CPS_TEST_PREBUILT=1) and in CI a missing or
 * stale build is an error, never a silent rebuild or a silent use of old code. A test file run on
 * its own builds when the build is stale, once: a lock folder keeps files that run side by side from
 * building into the same folder at once.
 */
export async function ensureBuild(distDir = DEFAULT_DIST_DIR, env: Record<string, string | undefined> = {}): Promise<void> {
  const check = checkNextBuild(distDir, ROOT);
  if (check.current) return;
  if (process.env.CPS_TEST_PREBUILT === "1") {
    throw new Error(`the production build in ${distDir} is not current (${check.reason}): the suites run on what npm run build made before them`);
  }
  const lock = path.join(ROOT, `${distDir}.lock`);
  await eventually(
    () => {
      try {
        mkdirSync(lock);
        return true;
      } catch {
        // Another test file is building; a lock older than 10 minutes is a leftover of a killed run.
        if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
        return false;
      }
    },
    { what: `the build lock ${lock}`, timeoutMs: 600_000, intervalMs: 500 },
  );
  try {
    const result = spawnSync(TSX, ["scripts/start.ts", "--build-only"], {
      cwd: ROOT,
      stdio: "pipe",
      env: { ...process.env, ...env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Starts the service on a free port. freePort() closes the port it found before the service binds
 * it, and on a busy machine another process (a test's own listener, an outgoing connection's
 * ephemeral port) can take it in between: a start that exits with EADDRINUSE on a port this helper
 * chose is tried again on another one (at most three times). A port the caller gave is not.
 */
export async function startService(options: StartServiceOptions = {}): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(options);
    } catch (error) {
      const lostPort = error instanceof PortTakenError;
      if (!lostPort || options.port !== undefined || attempt >= 3) throw lostPort ? new Error(error.message) : error;
    }
  }
}

class PortTakenError extends Error {}

async function startServiceOnce(options: StartServiceOptions): Promise<ServiceProcess> {
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? path.join(ROOT, ".data-test", `svc-${process.pid}-${port}-${Date.now()}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: "1",
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  await ensureBuild(distDir, options.env);
  const [command, args] = options.script ? [TSX, [options.script, ...(options.args ?? [])]] : npmScript("start", options.args);
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    detached: true, // its own process group: stop() and kill9() reach its children too, and nothing else
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const pid = child.pid!;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  const service: ServiceProcess = {
    baseUrl: `http://localhost:${port}`,
    port,
    pid,
    child,
    output: () => output,
    stdout: () => stdout,
    async stop(signal = "SIGTERM", timeoutMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      signalGroup(signal);
      const timer = setTimeout(() => signalGroup("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill9() {
      signalGroup("SIGKILL");
      await exited;
    },
  };
  const waitFor = options.waitFor ?? "healthy";
  if (waitFor !== "none") {
    const timeoutMs = options.timeoutMs ?? 180_000;
    const up = await eventually(
      async () => {
        if (child.exitCode !== null) {
          const message = `the service exited with code ${child.exitCode}:\n${output}`;
          if (!/EADDRINUSE/.test(output)) throw new Error(message);
          signalGroup("SIGKILL"); // whatever the exited launcher left in its group, before another start
          throw new PortTakenError(message);
        }
        try {
          // Bounded: a port another process took may accept the connection and never answer.
          const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(10_000) });
          return waitFor === "answer" || response.status === 200;
        } catch {
          return false; // not listening yet
        }
      },
      { timeoutMs, intervalMs: 250, onTimeout: "return" },
    );
    if (!up) {
      await service.kill9();
      throw new Error(`the service did not become ${waitFor} within the time-out:\n${output}`);
    }
  }
  return service;
}

export { NEXT_BIN };

/** A test file's own data folder for its service under .data-test/ (named, with the pid and the time, so that runs never share one). */
export function testDataDir(name: string): string {
  return path.join(ROOT, ".data-test", `${name}-${process.pid}-${Date.now()}`);
}

/** A test file's afterAll: stops its service, if it started, and removes the service's data folder. */
export async function stopServiceAndRemoveData(service: ServiceProcess | undefined, dataDir: string): Promise<void> {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
