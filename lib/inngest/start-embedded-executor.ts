// The background service that runs the embedded executor inside the Next.js server process, in
// embedded mode only. It learns the functions from this same process's /api/inngest over HTTP on
// the loopback interface, as an Inngest server would, and hands each call to the SDK's comm handler
// given by the launcher (lib/jobs/start-background-services.ts: called directly, no signature), or
// as the signed request an Inngest server sends to a serve handler; without either, calls go over HTTP too.
import { hostname } from "node:os";
import { EmbeddedExecutor, listenForWork, type DirectInvoke, type ServeHandler } from "@cps/inngest-embedded";
import { reportExecutorHeartbeat } from "./executor-status";
import { databaseUrl, hotSql } from "../db";
import { config } from "../env";
import { embeddedSigningKey } from "./signing-key";
import { lazyLogger } from "../observability/logger";

const state = globalThis as unknown as { __cpsEmbeddedExecutor?: EmbeddedExecutor };

/** The serve endpoint of this process, on loopback unless HOST binds one specific address. */
export function localServeUrl(): string {
  const { HOST, PORT } = config();
  const wildcard = ["0.0.0.0", "::", "localhost", "127.0.0.1", "::1", ""].includes(HOST);
  const host = wildcard ? "127.0.0.1" : HOST.includes(":") ? `[${HOST}]` : HOST;
  return `http://${host}:${PORT}/api/inngest`;
}

/** The executor this process runs, if any (embedded mode, after start). */
export function runningEmbeddedExecutor(): EmbeddedExecutor | undefined {
  return state.__cpsEmbeddedExecutor;
}

export async function startEmbeddedExecutor(options: { handler?: ServeHandler; invoke?: DirectInvoke } = {}): Promise<void> {
  if (config().inngestMode !== "embedded" || state.__cpsEmbeddedExecutor) return;
  const logger = lazyLogger("executor");
  const executor = new EmbeddedExecutor({
    // Its bookkeeping (claims, fan-out, a run's end) runs for every job: on the driver, not through
    // Prisma's runtime (hotSql, decision 0214).
    database: hotSql(),
    serveUrl: localServeUrl(),
    signingKey: embeddedSigningKey(),
    handler: options.handler,
    invoke: options.invoke,
    concurrency: config().INNGEST_EMBEDDED_CONCURRENCY,
    // Woken by PostgreSQL notifications of new work from every process (web processes store the
    // events); the poll interval is only the safety net for a lost notification.
    listen: (wake) => listenForWork({ connectionString: databaseUrl(), onWork: wake, logger }),
    pollIntervalMs: config().INNGEST_EMBEDDED_POLL_MS,
    retentionMs: config().INNGEST_EMBEDDED_RETENTION_DAYS > 0 ? config().INNGEST_EMBEDDED_RETENTION_DAYS * 86_400_000 : undefined,
    onPoll: (error) => reportExecutorHeartbeat(error),
    // One service process per host and port: its successor may take back what it left leased.
    workerId: `service@${hostname()}:${config().PORT}`,
    reclaimOwnLeasesOnStart: true,
    logger,
  });
  state.__cpsEmbeddedExecutor = executor;
  // Not awaited: the first poll syncs with /api/inngest, which answers once the server listens.
  // On SIGTERM lib/runtime/graceful-shutdown.ts drains it (drainEmbeddedExecutor); a process that
  // dies instead leaves its calls leased until the lease expires, then another process runs them.
  executor.start();
}

/** Graceful stop of this process's executor, bounded by `timeoutMs` (see EmbeddedExecutor.drain). */
export async function drainEmbeddedExecutor(timeoutMs: number): Promise<{ finished: boolean; released: number } | undefined> {
  const executor = state.__cpsEmbeddedExecutor;
  if (!executor) return undefined;
  const result = await executor.drain(timeoutMs);
  state.__cpsEmbeddedExecutor = undefined;
  return result;
}

/** Stops this process's executor, waiting for its calls however long they take (tests). */
export async function stopEmbeddedExecutor(): Promise<void> {
  const executor = state.__cpsEmbeddedExecutor;
  state.__cpsEmbeddedExecutor = undefined;
  await executor?.stop();
}
