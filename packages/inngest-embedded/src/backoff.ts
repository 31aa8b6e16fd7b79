// Retry delays of the Inngest server (pkg/backoff): 15 s doubling to 2 h, plus up to 30 s jitter.
// A Retry-After from the SDK (RetryAfterError) overrides the table.
const TABLE_MS = [15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_200_000, 2_400_000, 3_600_000, 7_200_000];

/** The delay before retrying after the failure of zero-based attempt `attempt`. */
export function retryDelayMs(options: { attempt: number; jitterMs: number; random?: () => number }): number {
  const base = TABLE_MS[Math.min(Math.max(options.attempt, 0), TABLE_MS.length - 1)] as number;
  return base + Math.floor((options.random ?? Math.random)() * options.jitterMs);
}

/** A Retry-After header: whole seconds or a date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): Date | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return new Date(now.getTime() + Number(value.trim()) * 1000);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
