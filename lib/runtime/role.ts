// What this process does (ROLE): "web" answers the merchant API, the hosted fields and the back
// office; "worker" runs the embedded executor and the periodic services; "all" does both (the
// default, what `npm start` runs). Every role serves /api/inngest: a worker's own executor calls it.
import { config } from "../env";

export type ProcessRole = "web" | "worker" | "all";
/**
 * Which roles a background service belongs to. "background": wherever this mode's background work
 * runs. In embedded mode that is the worker (or all) process, where the executor is; a web process
 * leaves it to them. With an Inngest server it is every role, since there may be no worker at all.
 */
export type ServiceRole = "web" | "worker" | "any" | "background";

export function processRole(): ProcessRole {
  return config().ROLE;
}

export function runsService(
  serviceRole: ServiceRole,
  role: ProcessRole = processRole(),
  inngestMode: () => "embedded" | "server" = () => config().inngestMode,
): boolean {
  if (serviceRole === "background") return role !== "web" || inngestMode() === "server";
  return serviceRole === "any" || role === "all" || role === serviceRole;
}

/** Whether this process runs an embedded executor: embedded mode, in a worker or all-in-one process. */
export function runsEmbeddedExecutor(): boolean {
  return config().inngestMode === "embedded" && runsService("worker");
}
