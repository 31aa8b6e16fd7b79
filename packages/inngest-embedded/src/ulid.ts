// The executor's row ids and lease tokens. The `ulid` package's default randomness detects the
// platform again on every call and then draws one byte per character through
// crypto.getRandomValues (16 calls per id): 1.9% of the worker's busy CPU in a profile of the
// background bench (docs/performance.md). These are the same ids from a pooled buffer of
// crypto.randomBytes (still the system's CSPRNG): each character takes one byte / 256, uniform
// over the 32-letter alphabet since 256 = 8 × 32.
import { randomBytes } from "node:crypto";
import { ulid as ulidFrom } from "ulid";

const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let used = 0;

function pooledRandom(): number {
  if (used === POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  return pool[used++]! / 256;
}

/** A ULID for `seedTime` (default now). */
export function ulid(seedTime?: number): string {
  return ulidFrom(seedTime, pooledRandom);
}
