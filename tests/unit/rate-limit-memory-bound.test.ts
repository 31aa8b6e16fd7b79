// Security review 3, M1: the in-memory rate limiter holds a bounded number of keys. It reaches into
// rate-limiter-flexible's memory store (which has no bound of its own), so this also fails when a new
// version of the library moves that store.
import { describe, expect, it } from "vitest";
import { RateLimiterRes } from "rate-limiter-flexible";
import { boundedMemoryLimiter } from "@/lib/api/rate-limits";

function storeSize(limiter: unknown): number {
  return (limiter as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage._storage.size;
}

describe("bounded in-memory rate limiter", () => {
  it("M1: never holds more than its bound of keys, dropping the oldest first", async () => {
    const limiter = boundedMemoryLimiter({ keyPrefix: "t", points: 2, duration: 60 }, 100);
    for (let index = 0; index < 1_000; index++) await limiter.consume(`key-${index}`);
    expect(storeSize(limiter)).toBe(100);
    // The newest keys are still counted: a third request within the window is refused.
    await limiter.consume("key-999");
    await expect(limiter.consume("key-999")).rejects.toBeInstanceOf(RateLimiterRes);
    // The oldest was dropped: its count started again.
    await expect(limiter.consume("key-0")).resolves.toBeInstanceOf(RateLimiterRes);
  });
});
