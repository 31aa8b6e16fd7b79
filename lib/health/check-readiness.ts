// Readiness (GET /api/health/ready): whether this process should get traffic now. 503 from the
// moment it starts shutting down, when its database is unreachable, and, for a process that runs
// the embedded executor, when the executor has stopped polling. Liveness is separate (the
// process answers at all): a process that drains is alive, only not ready.
import { backgroundStatus, type ComponentStatus } from "../inngest/executor-status";
import { processRole, runsEmbeddedExecutor, type ProcessRole } from "../runtime/role";
import { isShuttingDown } from "../runtime/shutdown-state";
import { checkDatabase } from "./check-health";

export interface Readiness {
  ready: boolean;
  role: ProcessRole;
  status: "ready" | "shutting-down" | "not-ready";
  checks: Record<string, ComponentStatus>;
}

export async function checkReadiness(): Promise<Readiness> {
  const role = processRole();
  if (isShuttingDown()) return { ready: false, role, status: "shutting-down", checks: {} };
  const checks: Record<string, ComponentStatus> = { database: await checkDatabase() };
  if (runsEmbeddedExecutor()) checks.executor = backgroundStatus();
  if (isShuttingDown()) return { ready: false, role, status: "shutting-down", checks };
  const ready = Object.values(checks).every((check) => check.status === "ok");
  return { ready, role, status: ready ? "ready" : "not-ready", checks };
}
