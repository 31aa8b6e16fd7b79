// Named fault points: places in the money flows where the fault-injection suite (tests/faults/) makes
// the service fail as a crash would, between two steps that must both happen. Inert unless a test
// arms a point in its own process (armFaultPoint): nothing in production arms one, no environment
// variable does, and an unarmed point costs one map look-up.
const state = globalThis as unknown as { __cpsFaultPoints?: Map<string, number> };

/** Every point the suite can arm; a point not listed here cannot be armed (a typo fails the test). */
export const FAULT_POINTS = [
  "authorize.before-call",
  "authorize.after-call",
  "follow-up.before-call",
  "follow-up.after-call",
  "follow-up.before-notify",
  "payout.after-call",
  "instant-capture.after-capture",
  "instant-capture.after-void",
  "reconcile.after-lookup",
  "merchant-api.after-work",
  "session.complete",
] as const;
export type FaultPointName = (typeof FAULT_POINTS)[number];

export class InjectedFault extends Error {
  constructor(readonly point: FaultPointName) {
    super(`injected fault at ${point}`);
    this.name = "InjectedFault";
  }
}

/** Throws InjectedFault when a test armed this point; otherwise does nothing. */
export function faultPoint(name: FaultPointName): void {
  const armed = state.__cpsFaultPoints;
  if (!armed) return;
  const remaining = armed.get(name);
  if (!remaining) return;
  if (remaining === 1) armed.delete(name);
  else armed.set(name, remaining - 1);
  throw new InjectedFault(name);
}

/** Tests only: the next `times` passes through `name` throw. */
export function armFaultPoint(name: FaultPointName, times = 1): void {
  if (!FAULT_POINTS.includes(name)) throw new Error(`unknown fault point ${name}`);
  state.__cpsFaultPoints ??= new Map();
  state.__cpsFaultPoints.set(name, times);
}

/** Tests only: disarms every point. */
export function disarmFaultPoints(): void {
  state.__cpsFaultPoints?.clear();
}

/** Tests only: armed points that were not reached (a case that never hit its fault proves nothing). */
export function armedFaultPoints(): FaultPointName[] {
  return [...(state.__cpsFaultPoints?.keys() ?? [])] as FaultPointName[];
}
