// The one way a test waits for something to happen: eventually() asks `probe` again and again until
// it answers, and fails with what it waited for when it does not in time. Used by every suite (vitest,
// Playwright, the ops scripts), so it imports no test runner.
//
// A wait that is itself what a test proves ("nothing arrives within 3 s", "the lock is still held
// after 1 s") is not a wait for a condition: it is written as quietFor(ms, why), so it reads as
// deliberate and cannot be mistaken for a poll someone forgot to replace.

export interface EventuallyOptions {
  /**
   * Names what is awaited, for the time-out's message ("the completion notification"); a function
   * is read at the time-out, to tell what was there instead.
   */
  what?: string | (() => string);
  /** How long to keep asking; default 30 s. */
  timeoutMs?: number;
  /** The pause between two questions; default 100 ms. Timing tests ask more often. */
  intervalMs?: number;
  /**
   * "throw" (the default): a time-out fails the wait. "return": a time-out ends the wait with
   * undefined, for a wait after which the test checks for itself (or a bounded settling period).
   */
  onTimeout?: "throw" | "return";
  /** Called between two questions (after the pause), for a clock the waiter has to move itself. */
  between?: () => unknown;
}

/** What a probe answers when it has no answer yet: undefined, null or false. */
type NotYet = undefined | null | false;

export class EventuallyTimeout extends Error {
  constructor(what: string, timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms waiting for ${what}`);
    this.name = "EventuallyTimeout";
  }
}

export function eventually<T>(probe: () => T | NotYet | Promise<T | NotYet>, options: EventuallyOptions & { onTimeout: "return" }): Promise<T | undefined>;
export function eventually<T>(probe: () => T | NotYet | Promise<T | NotYet>, options?: EventuallyOptions): Promise<T>;
/**
 * Asks `probe` until it answers something other than undefined, null or false, and resolves to that
 * answer (so a probe can wait for and return a row, a notification, a count). An error the probe
 * throws ends the wait at once: a probe that expects failures on the way (a server not listening
 * yet) catches them itself.
 */
export async function eventually<T>(probe: () => T | NotYet | Promise<T | NotYet>, options: EventuallyOptions = {}): Promise<T | undefined> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined && answer !== null && answer !== false) return answer as T;
    if (Date.now() >= deadline) {
      if (options.onTimeout === "return") return undefined;
      const what = typeof options.what === "function" ? options.what() : options.what;
      throw new EventuallyTimeout(what ?? "a condition", timeoutMs);
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
    await options.between?.();
  }
}

/**
 * Lets `ms` pass on purpose, because the passing time is part of what the test shows: nothing
 * happened meanwhile, a timer fired, a limit's window ended. `why` says which, for the reader.
 */
export async function quietFor(ms: number, why: string): Promise<void> {
  void why;
  await sleep(ms);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
