// What the health check knows about background work. The embedded executor reports a heartbeat
// each time it polls for due work; in server mode the Inngest server runs the work and the
// service only needs to be able to send events to it.
import { config } from "../env";

const HEARTBEAT_STALE_MS = 30_000;

const state = globalThis as unknown as { __cpsExecutorHeartbeat?: number; __cpsExecutorError?: string };

/** Called by the embedded executor on every poll; `error` when the poll failed. */
export function reportExecutorHeartbeat(error?: string): void {
  state.__cpsExecutorHeartbeat = Date.now();
  state.__cpsExecutorError = error;
}

export function clearExecutorHeartbeat(): void {
  state.__cpsExecutorHeartbeat = undefined;
  state.__cpsExecutorError = undefined;
}

export interface ComponentStatus {
  status: "ok" | "error";
  msg: string;
}

export function backgroundStatus(now = Date.now()): ComponentStatus {
  if (config().inngestMode === "server") return { status: "ok", msg: "" };
  const beat = state.__cpsExecutorHeartbeat;
  if (beat === undefined) return { status: "error", msg: "background executor is not running" };
  if (now - beat > HEARTBEAT_STALE_MS) {
    return { status: "error", msg: `background executor has not polled for ${Math.round((now - beat) / 1000)} s` };
  }
  // The error itself is in the executor's log; the public health answer names no internals.
  if (state.__cpsExecutorError) return { status: "error", msg: "background executor: its last poll failed" };
  return { status: "ok", msg: "" };
}
