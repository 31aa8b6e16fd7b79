// The executor's ULIDs from a pooled CSPRNG buffer (src/ulid.ts): valid ULIDs of the given time,
// distinct, and every random character uniform over the alphabet (a bias would show here).
import { decodeTime, isValid } from "ulid";
import { describe, expect, it } from "vitest";
import { ulid } from "../src/ulid";

describe("the executor's ULIDs", () => {
  it("are valid ULIDs of the given time, each one new", () => {
    const time = Date.UTC(2026, 10, 29, 23, 30);
    const ids = Array.from({ length: 5000 }, () => ulid(time));
    for (const id of ids.slice(0, 50)) {
      expect(isValid(id)).toBe(true);
      expect(decodeTime(id)).toBe(time);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(decodeTime(ulid())).toBeGreaterThanOrEqual(Date.now() - 1000);
  });

  it("draws every random character uniformly over the 32 letters, across many refills of the pool", () => {
    const counts = new Map<string, number>();
    const n = 20_000; // 16 random characters each: 320,000 bytes, about 78 refills of the 4 KB pool
    for (let i = 0; i < n; i += 1) for (const char of ulid(0).slice(10)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(32);
    const expected = (n * 16) / 32;
    // Chi-square with 31 degrees of freedom: above 70 happens by chance about once in 10,000 runs.
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(70);
  });
});
