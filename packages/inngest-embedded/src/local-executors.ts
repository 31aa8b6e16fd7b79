// Executors running in this process, so that an event accepted here is picked up at once
// instead of at the next poll. Other processes find the event at their next poll.
const state = globalThis as unknown as { __cpsLocalExecutorWakers?: Set<() => void> };

function wakers(): Set<() => void> {
  state.__cpsLocalExecutorWakers ??= new Set();
  return state.__cpsLocalExecutorWakers;
}

export function registerLocalExecutor(wake: () => void): () => void {
  wakers().add(wake);
  return () => wakers().delete(wake);
}

export function wakeLocalExecutors(): void {
  for (const wake of wakers()) wake();
}
