// Gauges read from the database when /metrics is scraped: the notification backlog and the
// embedded executor's queue. They describe state shared by every process, so every process
// reports the same values; dashboards take max() over instances, not sum().
import { Gauge, type Registry } from "prom-client";
import { db } from "../db";
import { log } from "../observability/logger";
import { metrics } from "../observability/metrics";

const state = globalThis as unknown as { __cpsDatabaseGauges?: boolean };

/** A gauge whose query fails keeps its last value: one slow table must not fail the whole scrape. */
async function safely(name: string, read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    log("metrics").warn({ err: error, gauge: name }, "could not read a gauge from the database");
  }
}

/** A gauge of the registry whose value `read` sets from the database at each scrape, `safely`. */
function databaseGauge<T extends string = string>(
  registry: Registry,
  options: { name: string; help: string; labelNames?: readonly T[]; read: (gauge: Gauge<T>) => Promise<void> },
): void {
  const { name, help, labelNames, read } = options;
  new Gauge<T>({
    name,
    help,
    ...(labelNames ? { labelNames } : {}),
    registers: [registry],
    async collect() {
      await safely(name, () => read(this));
    },
  });
}

export function registerDatabaseGauges(): void {
  if (state.__cpsDatabaseGauges) return;
  state.__cpsDatabaseGauges = true;
  const { registry } = metrics();
  databaseGauge(registry, {
    name: "cps_notification_backlog",
    help: "Merchant notifications not yet acknowledged and still to be retried (status pending).",
    read: async (gauge) => gauge.set(await db().notification.count({ where: { status: "pending" } })),
  });
  databaseGauge(registry, {
    name: "cps_notification_oldest_pending_age_seconds",
    help: "Age of the oldest pending merchant notification (0 when none).",
    read: async (gauge) => {
      const oldest = await db().notification.aggregate({ where: { status: "pending" }, _min: { createdAt: true } });
      gauge.set(oldest._min.createdAt ? (Date.now() - oldest._min.createdAt.getTime()) / 1000 : 0);
    },
  });
  databaseGauge(registry, {
    name: "cps_operations_awaiting_operator",
    help: "Operations an operator has to settle (docs/operations.md, Unknown outcomes): outcome unknown with no look-up to settle it (reason unknown_outcome), or settled and then contradicted by the acquirer (reason contradicted). Alert on any value above 0.",
    labelNames: ["reason"] as const,
    read: async (gauge) => {
      const [unknown, contradicted] = await Promise.all([
        db().operation.count({ where: { status: "pending", operatorAlertedAt: { not: null } } }),
        db().operation.count({ where: { lateAnswerAt: { not: null } } }),
      ]);
      gauge.set({ reason: "unknown_outcome" }, unknown);
      gauge.set({ reason: "contradicted" }, contradicted);
    },
  });
  const dueAndFree = (now: Date) => ({ runAt: { lte: now }, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] });
  databaseGauge(registry, {
    name: "cps_executor_queue_depth",
    help: "Embedded executor jobs by state: due (waiting for a worker), leased (running), scheduled (due later).",
    labelNames: ["state"] as const,
    read: async (gauge) => {
      const now = new Date();
      const [due, leased, total] = await Promise.all([
        db().inngestJob.count({ where: dueAndFree(now) }),
        db().inngestJob.count({ where: { leaseExpiresAt: { gte: now } } }),
        db().inngestJob.count(),
      ]);
      gauge.set({ state: "due" }, due);
      gauge.set({ state: "leased" }, leased);
      gauge.set({ state: "scheduled" }, Math.max(total - due - leased, 0));
    },
  });
  databaseGauge(registry, {
    name: "cps_executor_oldest_due_job_lag_seconds",
    help: "How long the oldest due, unleased executor job has waited past its due time (0 when none): the executor's lag.",
    read: async (gauge) => {
      const now = new Date();
      const oldest = await db().inngestJob.aggregate({ where: dueAndFree(now), _min: { runAt: true } });
      gauge.set(oldest._min.runAt ? Math.max(now.getTime() - oldest._min.runAt.getTime(), 0) / 1000 : 0);
    },
  });
}

/** The exposition text of every metric (Prometheus text format). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  registerDatabaseGauges();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
