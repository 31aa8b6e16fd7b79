// Gauges read from the database when /metrics is scraped: the notification backlog and the
// embedded executor's queue. They describe state shared by every process, so every process
// reports the same values; dashboards take max() over instances, not sum().
import { Gauge } from "prom-client";
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

export function registerDatabaseGauges(): void {
  if (state.__cpsDatabaseGauges) return;
  state.__cpsDatabaseGauges = true;
  const { registry } = metrics();
  new Gauge({
    name: "cps_notification_backlog",
    help: "Merchant notifications not yet acknowledged and still to be retried (status pending).",
    registers: [registry],
    async collect() {
      await safely("cps_notification_backlog", async () => {
        this.set(await db().notification.count({ where: { status: "pending" } }));
      });
    },
  });
  new Gauge({
    name: "cps_notification_oldest_pending_age_seconds",
    help: "Age of the oldest pending merchant notification (0 when none).",
    registers: [registry],
    async collect() {
      await safely("cps_notification_oldest_pending_age_seconds", async () => {
        const oldest = await db().notification.aggregate({ where: { status: "pending" }, _min: { createdAt: true } });
        this.set(oldest._min.createdAt ? (Date.now() - oldest._min.createdAt.getTime()) / 1000 : 0);
      });
    },
  });
  new Gauge({
    name: "cps_operations_awaiting_operator",
    help: "Operations an operator has to settle (docs/operations.md, Unknown outcomes): outcome unknown with no look-up to settle it (reason unknown_outcome), or settled and then contradicted by the acquirer (reason contradicted). Alert on any value above 0.",
    labelNames: ["reason"] as const,
    registers: [registry],
    async collect() {
      await safely("cps_operations_awaiting_operator", async () => {
        const [unknown, contradicted] = await Promise.all([
          db().operation.count({ where: { status: "pending", operatorAlertedAt: { not: null } } }),
          db().operation.count({ where: { lateAnswerAt: { not: null } } }),
        ]);
        this.set({ reason: "unknown_outcome" }, unknown);
        this.set({ reason: "contradicted" }, contradicted);
      });
    },
  });
  const dueAndFree = (now: Date) => ({ runAt: { lte: now }, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] });
  new Gauge({
    name: "cps_executor_queue_depth",
    help: "Embedded executor jobs by state: due (waiting for a worker), leased (running), scheduled (due later).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      await safely("cps_executor_queue_depth", async () => {
        const now = new Date();
        const [due, leased, total] = await Promise.all([
          db().inngestJob.count({ where: dueAndFree(now) }),
          db().inngestJob.count({ where: { leaseExpiresAt: { gte: now } } }),
          db().inngestJob.count(),
        ]);
        this.set({ state: "due" }, due);
        this.set({ state: "leased" }, leased);
        this.set({ state: "scheduled" }, Math.max(total - due - leased, 0));
      });
    },
  });
  new Gauge({
    name: "cps_executor_oldest_due_job_lag_seconds",
    help: "How long the oldest due, unleased executor job has waited past its due time (0 when none): the executor's lag.",
    registers: [registry],
    async collect() {
      await safely("cps_executor_oldest_due_job_lag_seconds", async () => {
        const now = new Date();
        const oldest = await db().inngestJob.aggregate({ where: dueAndFree(now), _min: { runAt: true } });
        this.set(oldest._min.runAt ? Math.max(now.getTime() - oldest._min.runAt.getTime(), 0) / 1000 : 0);
      });
    },
  });
}

/** The exposition text of every metric (Prometheus text format). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  registerDatabaseGauges();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
