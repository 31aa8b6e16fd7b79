// npm start: the whole service from a fresh clone. Prepares the database (the embedded one unless
// DATABASE_URL is set), applies migrations, seeds the demo merchant on first run (local mode only), builds when the
// sources are newer than the last build, starts Next.js (a worker: scripts/worker.ts, without Next.js)
// and prints where everything is.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { config, resetConfig } from "../lib/env";
import { checkAcquirerEnvironment } from "../lib/acquirers/environment";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/db/embedded-postgres";
import { migrateDatabase } from "../lib/db/migrations";
import { disconnectDb } from "../lib/db";
import { log as serviceLog } from "../lib/observability/logger";
import { SERVICE_NODE_FLAGS } from "../lib/runtime/service-node-flags";
import { checkNextBuild } from "./build/freshness.mjs";

const require = createRequire(import.meta.url);
const NEXT_BIN = require.resolve("next/dist/bin/next");
/**
 * Waits for the server to answer health, then gives its background services a few seconds to
 * report in (the executor's first heartbeat comes just after the server is ready).
 */
async function waitForHealth(url: string, child: ReturnType<typeof spawn>, timeoutMs = 90_000, settleMs = 20_000): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let firstAnswerAt: number | undefined;
  let last: { status: number; body: unknown } | undefined;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      last = { status: response.status, body: await response.json() };
      firstAnswerAt ??= Date.now();
      if (last.status === 200 || Date.now() - firstAnswerAt > settleMs) return last;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  if (last) return last;
  throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s`);
}

function requireBuild(worker: boolean): void {
  if (worker) {
    if (!existsSync(WORKER_SCRIPT)) throw new Error(`no ${WORKER_SCRIPT}: run npm run build first`);
    return;
  }
  const buildId = path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) throw new Error(`no production build in ${path.dirname(buildId)}: run npm run build first`);
}

/** A worker process runs no Next.js (decision 0219): scripts/worker.ts, compiled by `npm run build`. */
const WORKER_SCRIPT = "dist/worker.js";

/**
 * What the server process runs: `next start` (`next dev` with --dev) for the web and all-in-one
 * roles; for ROLE=worker the worker script. A production start runs the compiled one; a local start
 * the compiled one when it is current, else the source through tsx (scripts/run-script.mjs decides).
 */
function serverCommand(worker: boolean, dev: boolean, settings: { HOST: string; PORT: number; isProduction: boolean }): string[] {
  if (worker) return settings.isProduction ? [path.resolve(WORKER_SCRIPT)] : [path.resolve("scripts/run-script.mjs"), "worker"];
  return [NEXT_BIN, dev ? "dev" : "start", "-H", settings.HOST, "-p", String(settings.PORT)];
}

function buildIfStale(): void {
  if (checkNextBuild().current) return;
  const first = !existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"));
  // A newcomer's first start spends minutes here: say so, so that it is not taken for a hang.
  console.log(
    first
      ? "[start] building the app for the first time (next build): about 2-5 minutes on a laptop, longer on a busy machine; later starts reuse it and only rebuild after a change"
      : "[start] the sources changed since the last build: building again (next build, about 1-3 minutes)",
  );
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit", env: { ...process.env, CPS_LOCAL: "1", NEXT_TELEMETRY_DISABLED: "1" } });
  if (build.status !== 0) throw new Error("next build failed");
}

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  if (process.argv.includes("--build-only")) {
    // Used by tests (tests/helpers/service-process.ts): build once, start nothing.
    buildIfStale();
    return;
  }
  const settings = config();
  checkAcquirerEnvironment(settings);
  // LOG_FORMAT=json (the production default): every line on stdout is one JSON object, this
  // script's own lines, the migrations' and the start summary included, for a log pipeline.
  const jsonOutput = (settings.LOG_FORMAT ?? (settings.isProduction ? "json" : "pretty")) === "json";
  const log = (line: string) => (jsonOutput ? serviceLog("start").info({ event: "start.step" }, line) : console.log(`[start] ${line}`));

  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = settings.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres();
    if (!embedded.owner) throw new Error(`The embedded database in ${settings.DATA_DIR} is already served by a running service.`);
    databaseUrl = embedded.url;
    process.env.DATABASE_URL = databaseUrl;
    resetConfig();
    resetConfig(); // config() was read above, before the embedded database had a URL
    log(`embedded database in ${path.resolve(settings.DATA_DIR, "pglite")} on 127.0.0.1:${embedded.port}`);
  }
  const migrations = await migrateDatabase(databaseUrl, { log: (line) => log(line), upgradeMode: config().defaultMode });
  log(`database schema up to date (${migrations.applied.length} migration(s) applied now)`);

  const demoLines = await (await import("../lib/sandboxes/prepare-demo")).prepareDemo({ log }); // local mode only; no secrets printed
  await disconnectDb();

  // `npm run dev` keeps `next dev` (with its reloads) in every role.
  const worker = settings.ROLE === "worker" && !dev;
  // A production start (NODE_ENV=production without CPS_LOCAL) runs what `npm run build` made, never a build.
  if (!dev && settings.isProduction) requireBuild(worker);
  else if (!dev && !worker) buildIfStale();

  const childEnv: NodeJS.ProcessEnv = {
    NEXT_TELEMETRY_DISABLED: "1",
    ...process.env,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: settings.secrets.sessionSecret,
    CARD_DATA_KEY: settings.secrets.cardDataKey,
    API_KEY_SECRET: settings.secrets.apiKeySecret,
    NEXTAUTH_SECRET: settings.secrets.sessionSecret,
    NEXTAUTH_URL: `${settings.backofficeBaseUrl}/api/auth`,
    PUBLIC_BASE_URL: settings.publicBaseUrl,
    CPS_LOCAL: settings.isProduction ? "" : "1",
    // SIGTERM drains instead of stopping at once (lib/runtime/graceful-shutdown.ts); `next dev` keeps its own.
    NEXT_MANUAL_SIG_HANDLE: dev ? "" : "1",
  };
  // `next dev` keeps Node's defaults; a start serves with the service's flags (lib/runtime/service-node-flags.ts).
  const server = spawn(process.execPath, [...(dev ? [] : SERVICE_NODE_FLAGS), ...serverCommand(worker, dev, settings)], {
    stdio: ["ignore", jsonOutput ? "pipe" : "inherit", "inherit"],
    // `next start` takes its address from -H and -p; the worker from HOST and PORT.
    env: { ...childEnv, HOST: settings.HOST, PORT: String(settings.PORT) },
  });
  if (jsonOutput && server.stdout) {
    // The service's own lines are JSON already; Next.js's banner ("▲ Next.js", "✓ Ready") is not,
    // so each such line becomes one JSON line of its own.
    let pending = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim() === "") continue;
        if (line.startsWith("{")) process.stdout.write(`${line}\n`);
        else serviceLog("next").info({ event: "next.output" }, line.trim());
      }
    });
  }
  let stopping = false;
  // On SIGTERM / SIGINT the server gets SIGTERM, drains within SHUTDOWN_TIMEOUT_MS and exits 0; this
  // process then exits with the server's code (killed and 1 if it overstays its bound by 5 s).
  const shutdown = async (exitedWith?: number) => {
    if (stopping) return;
    stopping = true;
    let code = exitedWith ?? 1;
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      code = await new Promise<number>((resolve) => {
        const timer = setTimeout(() => {
          server.kill("SIGKILL");
          resolve(1);
        }, settings.SHUTDOWN_TIMEOUT_MS + 5_000);
        server.once("exit", (exitCode) => {
          clearTimeout(timer);
          // `next dev` ends with 130 / 143 on a signal; that is its normal stop.
          resolve(dev && (exitCode === 130 || exitCode === 143) ? 0 : (exitCode ?? 1));
        });
      });
    }
    await embedded?.stop();
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutdown());
  server.on("exit", (code) => void shutdown(code ?? 1));

  // This process's own listener, not the public base URL (a load balancer in front of several processes).
  const localHost = ["0.0.0.0", "::", ""].includes(settings.HOST) ? "127.0.0.1" : settings.HOST.includes(":") ? `[${settings.HOST}]` : settings.HOST;
  const health = await waitForHealth(`http://${localHost}:${settings.PORT}/api/health`, server);
  const ok = health.status === 200;
  // A worker is not behind the public base URL: its health is at its own listener.
  const healthUrl = worker ? `http://${localHost}:${settings.PORT}/api/health` : `${settings.apiBaseUrls.health}/api/health`;
  if (jsonOutput) {
    serviceLog("start").info(
      {
        event: "start.ready",
        role: settings.ROLE,
        baseUrl: settings.publicBaseUrl,
        backofficeUrl: `${settings.backofficeBaseUrl}/backoffice`,
        healthUrl,
        healthy: ok,
        ...(ok ? {} : { health: health.body }),
        demo: demoLines.map((line) => line.trim()),
      },
      "Card Payment Service is running",
    );
    return;
  }
  const healthLine = `  Health        ${healthUrl}   ${ok ? "ok" : `NOT OK: ${JSON.stringify(health.body)}`}`;
  console.log(
    (worker
      ? // A worker answers its health endpoints, /metrics and /api/inngest only (lib/jobs/worker-server.ts).
        ["", "  Card Payment Service worker is running", "  The merchant API, the back office and the card fields are served by web processes (ROLE=web or all).", healthLine, ""]
      : ["", "  Card Payment Service is running", `  Base URL      ${settings.publicBaseUrl}`, `  Back office   ${settings.backofficeBaseUrl}/backoffice`, ...demoLines, healthLine, ""]
    ).join("\n"),
  );
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
