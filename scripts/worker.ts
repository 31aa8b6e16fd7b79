// A worker process (ROLE=worker) without Next.js (decision 0219): the embedded executor and the
// background services of lib/jobs/start-background-services.ts, with a small HTTP server for its
// health endpoints, /metrics and the executor's /api/inngest (lib/jobs/worker-server.ts). The
// launcher (scripts/start.ts) runs it for ROLE=worker, compiled as dist/worker.js by `npm run build`;
// the database is migrated by the launcher before. Stopped by SIGTERM or SIGINT, which drain
// (lib/runtime/graceful-shutdown.ts).
import { config } from "../lib/env";
import { startTracing } from "../lib/observability/tracing";
import { checkAcquirerEnvironment } from "../lib/acquirers/environment";
import { installGracefulShutdown } from "../lib/runtime/graceful-shutdown";
import { createWorkerServer } from "../lib/jobs/worker-server";
import { startBackgroundServices } from "../lib/jobs/start-background-services";
import { log } from "../lib/observability/logger";

async function main(): Promise<void> {
  const settings = config();
  if (settings.ROLE !== "worker") {
    // The merchant API, the hosted fields and the back office are Next.js routes: web and all-in-one
    // processes run `next start` (scripts/start.ts chooses).
    throw new Error(`scripts/worker.ts runs ROLE=worker only (ROLE is ${settings.ROLE}); start the service with npm start or node dist/start.js`);
  }
  // Traces first (when OTEL_EXPORTER_OTLP_ENDPOINT is set), so that all later work is traced.
  startTracing();
  checkAcquirerEnvironment();
  installGracefulShutdown({ withoutNext: true });
  const server = createWorkerServer();
  // Listening before the executor starts: its first step is the in-band sync with /api/inngest here.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.PORT, settings.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await startBackgroundServices();
  log("worker").info({ event: "worker.ready", host: settings.HOST, port: settings.PORT }, `worker listening on ${settings.HOST}:${settings.PORT}`);
}

main().catch((error: unknown) => {
  console.error(`[worker] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
