// Time as the executor sees it. Production uses the system clock; tests pass a TestClock and move
// it forward, so a 24-hour sleep or a 2-hour retry backoff is tested in milliseconds while the
// production schedule stays what the functions say.
import { parseDurationMs } from "./duration";

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class TestClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock forward by milliseconds or an Inngest duration ("3s", "1h30m", "1d"). */
  advance(by: number | string): Date {
    const ms = typeof by === "number" ? by : parseDurationMs(by);
    if (ms < 0) throw new Error("a clock does not go back");
    this.current += ms;
    return this.now();
  }

  /** Moves the clock to `date` if that is later than now. */
  advanceTo(date: Date): Date {
    this.current = Math.max(this.current, date.getTime());
    return this.now();
  }
}
