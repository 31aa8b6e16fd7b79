// Starts the real service as a child process, the way an operator does (`scripts/start.ts`, a Next
// production build), for tests that need the whole stack: Next's own routing and headers, a
// production start, a `kill -9` or a SIGTERM. Each process runs in its own process group, and
// stop()/kill9() signal only that group: a test never ends a process it did not start.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, existsSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

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
  /** The Next build folder; default `.next-test` (built once, shared by every test that uses this helper). */
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
 * Builds the Next app into `distDir` unless a build newer than the sources is there. A lock folder
 * keeps test files that run side by side from building into the same folder at once.
 */
export async function ensureBuild(distDir = ".next-test", env: Record<string, string | undefined> = {}): Promise<void> {
  const lock = path.join(ROOT, `${distDir}.lock`);
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is building; a lock older than 10 minutes is a leftover of a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited too long for the build lock ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
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

export async function startService(options: StartServiceOptions = {}): Promise<ServiceProcess> {
  const distDir = options.distDir ?? ".next-test";
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
  const child = spawn(TSX, [options.script ?? "scripts/start.ts", ...(options.args ?? [])], {
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
    const deadline = Date.now() + (options.timeoutMs ?? 180_000);
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode}:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (waitFor === "answer" || response.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await service.kill9();
        throw new Error(`the service did not become ${waitFor} within the time-out:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return service;
}

export { NEXT_BIN };
