// Sleep ops carry their duration in the op's `name`, in the SDK's time-string form ("2s",
// "1h30m", "1d") or as an ISO date for step.sleepUntil.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;

export function parseDurationMs(text: string): number {
  const trimmed = text.trim();
  if (!DURATION.test(trimmed)) throw new Error(`not a duration: ${JSON.stringify(text)}`);
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(PART)) {
    total += Number(amount) * (UNIT_MS[unit as string] ?? 0);
  }
  return Math.round(total);
}

/** When a Sleep op whose name is `name` wakes, given the time the op was received. */
export function sleepWakeTime(name: string, now: Date): Date {
  if (DURATION.test(name.trim())) return new Date(now.getTime() + parseDurationMs(name));
  const date = new Date(name);
  if (Number.isNaN(date.getTime())) throw new Error(`a Sleep op names neither a duration nor a date: ${JSON.stringify(name)}`);
  return date;
}
