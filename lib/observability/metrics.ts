// The Prometheus metrics of the service (prom-client), in one registry per process. The registry
// lives on globalThis: Next.js may load this module in more than one bundle, and a metric
// registered twice is an error. Gauges that describe shared state (notification backlog, executor
// queue, database pool) are read when /metrics is scraped, not kept up to date on every change.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Pool } from "pg";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  // The event loop's delay is sampled every 100 ms rather than prom-client's 10: a timer firing 100
  // times a second cost an idle process about half a percent of a core (decision 0231); a stall
  // is still measured to the millisecond, by how late the next sample fires.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const pools = new Set<Pool>();
  const collectors: (() => Promise<void>)[] = [];
  const metrics = {
    registry,
    pools,
    collectors,
    httpRequests: new Counter({
      name: "cps_http_requests_total",
      help: "Requests answered, by route (the route pattern, not the path), method, status, error code and mode (test, live; empty when no API key identified the request).",
      labelNames: ["route", "method", "status", "error", "mode"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "cps_http_request_duration_seconds",
      help: "Time to answer a request, by route, method and status class.",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: "cps_rate_limited_total",
      help: "Requests refused with 429, by limit (api-key, hosted-session).",
      labelNames: ["limit"] as const,
      registers: [registry],
    }),
    acquirerCalls: new Counter({
      name: "cps_acquirer_calls_total",
      help: "Calls to acquirers, by processor, operation, outcome (approved, declined, retryable, indeterminate, error) and the account's mode (test, live).",
      labelNames: ["processor", "operation", "outcome", "mode"] as const,
      registers: [registry],
    }),
    acquirerDuration: new Histogram({
      name: "cps_acquirer_call_duration_seconds",
      help: "Duration of acquirer calls, by processor, operation, outcome and mode.",
      labelNames: ["processor", "operation", "outcome", "mode"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    notificationAttempts: new Counter({
      name: "cps_notification_attempts_total",
      help: "Merchant notification delivery attempts, by outcome (delivered, failed) and mode (test, live).",
      labelNames: ["outcome", "mode"] as const,
      registers: [registry],
    }),
    notificationDuration: new Histogram({
      name: "cps_notification_attempt_duration_seconds",
      help: "Duration of merchant notification delivery attempts, by outcome and mode.",
      labelNames: ["outcome", "mode"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    jobs: new Counter({
      name: "cps_jobs_total",
      help: "Executor calls of Inngest functions that ended, by function and outcome (ok, retry, failed).",
      labelNames: ["function", "outcome"] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: "cps_job_duration_seconds",
      help: "Duration of one executor call of an Inngest function (one step or discovery), by function.",
      labelNames: ["function"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: "cps_job_failures_total",
      help: "Inngest runs that failed for good (retries exhausted or not retriable), by function.",
      labelNames: ["function"] as const,
      registers: [registry],
    }),
  };
  new Gauge({
    name: "cps_db_pool_connections",
    help: "PostgreSQL connections of this process's pool, by state (total, idle, waiting = queued requests).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      let total = 0;
      let idle = 0;
      let waiting = 0;
      for (const pool of pools) {
        if ((pool as Pool & { ended?: boolean }).ended) {
          pools.delete(pool);
          continue;
        }
        total += pool.totalCount;
        idle += pool.idleCount;
        waiting += pool.waitingCount;
      }
      this.set({ state: "total" }, total);
      this.set({ state: "idle" }, idle);
      this.set({ state: "waiting" }, waiting);
    },
  });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

const state = globalThis as unknown as { __cpsMetrics?: Metrics };

export function metrics(): Metrics {
  state.__cpsMetrics ??= createMetrics();
  return state.__cpsMetrics;
}

/** The Prisma adapter's pg Pool, so that /metrics can report its use (lib/db.ts calls it). */
export function observePool(pool: Pool): void {
  metrics().pools.add(pool);
}
