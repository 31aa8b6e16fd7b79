// Whether this process is shutting down: set at SIGTERM, read by the readiness check, which then
// answers 503 at once so that load balancers send nothing new while the process drains.
const state = globalThis as unknown as { __cpsShutdownStartedAt?: number };

export function markShuttingDown(now = Date.now()): void {
  state.__cpsShutdownStartedAt ??= now;
}

export function isShuttingDown(): boolean {
  return state.__cpsShutdownStartedAt !== undefined;
}

/** Tests only: a process that started shutting down never stops doing so. */
export function clearShutdownState(): void {
  state.__cpsShutdownStartedAt = undefined;
}
