// Graceful shutdown of a service process (SIGTERM from an orchestrator, SIGINT from a terminal):
//  1. readiness answers 503 at once (lib/runtime/shutdown-state.ts);
//  2. for SHUTDOWN_DRAIN_MS requests are still served (a load balancer needs a moment to notice),
//     while the embedded executor claims nothing new, lets its calls in flight finish and gives
//     back what it holds (EmbeddedExecutor.drain): a successor elsewhere runs that work at once;
//  3. the HTTP servers stop accepting, finish the requests in flight and close their connections;
//  4. the database pool closes and the process exits 0, all within SHUTDOWN_TIMEOUT_MS (exit 1 if
//     something still hangs then).
// Next.js has its own handler that closes the server at once and exits 143; the launcher
// (scripts/start.ts) sets NEXT_MANUAL_SIG_HANDLE so that this one runs instead. A worker process
// runs no Next.js (scripts/worker.ts): there this one is the only handler.
import http from "node:http";
import { config } from "../env";
import { disconnectDb } from "../db";
import { flushApiRequestLog } from "../api/api-request-log";
import { drainEmbeddedExecutor } from "../inngest/start-embedded-executor";
import { stopEventRelayService } from "../inngest/event-relay";
import { isShuttingDown, markShuttingDown } from "./shutdown-state";
import { log as logger } from "../observability/logger";

const state = globalThis as unknown as { __cpsShutdownInstalled?: boolean };

/** Time kept for closing the servers and the pool after the executor's share of the bound. */
const CLOSE_RESERVE_MS = 2_000;

/**
 * Installs the handler where no other one runs: under `next start` only with NEXT_MANUAL_SIG_HANDLE
 * (else Next's own stops the process); in a worker's own process (no Next.js, decision 0219) always.
 */
export function installGracefulShutdown(options: { withoutNext?: boolean } = {}): void {
  if (state.__cpsShutdownInstalled || !(options.withoutNext || config().NEXT_MANUAL_SIG_HANDLE)) return;
  state.__cpsShutdownInstalled = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void shutDown(signal));
}

// Through the one logger; the "[shutdown]" tag stays in the text for operators (and CI) who grep for it.
const log = (line: string) => logger("shutdown").info(`[shutdown] ${line}`);

export async function shutDown(signal: string): Promise<void> {
  if (isShuttingDown()) return;
  markShuttingDown();
  const { SHUTDOWN_TIMEOUT_MS: timeoutMs, shutdownDrainMs } = config();
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  log(`${signal}: readiness now answers 503; stopping within ${timeoutMs} ms`);
  setTimeout(() => {
    log(`still busy after ${timeoutMs} ms: exiting anyway`);
    process.exit(1);
  }, timeoutMs).unref();

  const executorBudget = Math.max(timeoutMs - CLOSE_RESERVE_MS, 0);
  const [, executor] = await Promise.all([
    new Promise((resolve) => setTimeout(resolve, Math.min(shutdownDrainMs, executorBudget))),
    drainEmbeddedExecutor(executorBudget).catch((error: unknown) => {
      log(`executor drain failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }),
    // Server mode: a forward in flight ends (or is rolled back and sent again by a successor).
    stopEventRelayService().catch(() => {}),
  ]);
  if (executor)
    log(
      executor.finished
        ? `executor: calls in flight finished (${elapsed()} ms)`
        : `executor: gave back ${executor.released} job(s) still running after ${executorBudget} ms`,
    );

  await closeHttpServers(Math.max(timeoutMs - elapsed() - 500, 0));
  // The merchant API's request log is written in batches (lib/api/api-request-log.ts): the rows of
  // the last requests are written now, before the pool closes, not lost with the process.
  await flushApiRequestLog().catch(() => {});
  await disconnectDb().catch(() => {});
  log(`stopped after ${elapsed()} ms`);
  // stdout to a pipe is written asynchronously: let the last lines out before exiting.
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  process.exit(0);
}

/**
 * The listening HTTP servers of this process: Next's or the worker's, and the in-process sandboxes'. Next does
 * not hand its server to the app, so they are found among the process's active handles.
 */
function listeningServers(): http.Server[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((handle): handle is http.Server => handle instanceof http.Server && handle.listening);
}

/** Closes every listening HTTP server of this process within `withinMs`, the requests in flight first. */
export async function closeHttpServers(withinMs: number): Promise<void> {
  const servers = listeningServers();
  const closed = Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
    ),
  );
  // A closed server still answers new requests on kept-alive connections (health checks every few
  // ms keep one busy): close each one as soon as it is idle between two requests.
  const sweeper = setInterval(() => servers.forEach((server) => server.closeIdleConnections()), 25);
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), withinMs);
    }),
  ]);
  clearTimeout(timer);
  clearInterval(sweeper);
  if (!inTime) {
    log("requests still open: closing their connections");
    for (const server of servers) server.closeAllConnections();
  }
}
