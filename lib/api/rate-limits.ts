// Request rate limits of the merchant API (per API key) and of the hosted fields (per session),
// with rate-limiter-flexible. Counters live in memory by default (each process counts its own
// share: with N web processes a key gets up to N times the limit) or in PostgreSQL
// (RATE_LIMIT_STORE=postgres: one count for every process; the library creates its table
// `cps_rate_limits` on first use). A database that fails falls back to counting in memory:
// limits must not take the API down.
// A refused request is answered 429 with the spec's `{ error, errordescription }` and Retry-After.
import pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { config } from "../env";
import { rateLimited, type ApiError } from "../errors";
import { log } from "../observability/logger";
import { metrics } from "../observability/metrics";

export type RateLimitName = "api-key" | "hosted-session";

/**
 * The most keys one in-memory limiter holds. rate-limiter-flexible's memory store keeps a record per
 * key until its window ends, without a cap; past this bound the oldest keys are dropped (their counts
 * start again), so a flood of distinct keys costs at most about 50,000 small records (~12 MB).
 */
export const MAX_MEMORY_LIMITER_KEYS = 50_000;

type MemoryRecord = { timeoutId?: NodeJS.Timeout };

/** A memory limiter whose store never holds more than `maxKeys` keys (oldest dropped first). */
export function boundedMemoryLimiter(
  options: { keyPrefix: string; points: number; duration: number },
  maxKeys = MAX_MEMORY_LIMITER_KEYS,
): RateLimiterMemory {
  const limiter = new RateLimiterMemory(options);
  // The store's Map (insertion order = oldest first); rate-limiter-flexible 11 has no bound of its own.
  // tests/unit/rate-limit-memory-bound.test.ts fails if a new version moves it.
  const storage = (limiter as unknown as { _memoryStorage: { _storage: Map<string, MemoryRecord> } })._memoryStorage._storage;
  const consume = limiter.consume.bind(limiter);
  limiter.consume = (key, points, consumeOptions) => {
    const storeKey = limiter.getKey(key);
    while (storage.size >= maxKeys && !storage.has(storeKey)) {
      const [oldest, record] = storage.entries().next().value as [string, MemoryRecord];
      clearTimeout(record.timeoutId);
      storage.delete(oldest);
    }
    return consume(key, points, consumeOptions);
  };
  return limiter;
}

interface Limit {
  points: number;
  durationSeconds: number;
}

function limitOf(name: RateLimitName): Limit {
  const settings = config();
  return name === "api-key"
    ? { points: settings.RATE_LIMIT_API_PER_SECOND, durationSeconds: 1 }
    : { points: settings.RATE_LIMIT_SESSION_PER_MINUTE, durationSeconds: 60 };
}

const state = globalThis as unknown as { __cpsRateLimiters?: Map<string, Promise<RateLimiterAbstract>>; __cpsRateLimitPool?: pg.Pool };

function rateLimitPool(databaseUrl: string): pg.Pool {
  if (!state.__cpsRateLimitPool) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // An idle connection the server closed must not become an unhandled error; the next query reconnects.
    pool.on("error", (error) => log("rate-limits").warn({ err: error }, "rate-limit database connection lost"));
    state.__cpsRateLimitPool = pool;
  }
  return state.__cpsRateLimitPool;
}

/** The limiter, once ready: a PostgreSQL limiter answers from memory until its table exists, so wait for it. */
function limiter(name: RateLimitName, limit: Limit): Promise<RateLimiterAbstract> {
  const settings = config();
  const cacheKey = `${name}:${limit.points}:${limit.durationSeconds}:${settings.RATE_LIMIT_STORE}`;
  state.__cpsRateLimiters ??= new Map();
  let found = state.__cpsRateLimiters.get(cacheKey);
  if (found) return found;
  const options = { keyPrefix: name, points: limit.points, duration: limit.durationSeconds };
  const memory = boundedMemoryLimiter(options);
  if (settings.RATE_LIMIT_STORE === "postgres" && settings.DATABASE_URL) {
    const databaseUrl = settings.DATABASE_URL;
    found = new Promise<RateLimiterAbstract>((resolve) => {
      const postgres: RateLimiterPostgres = new RateLimiterPostgres(
        { ...options, storeClient: rateLimitPool(databaseUrl), storeType: "pool", tableName: "cps_rate_limits", insuranceLimiter: memory },
        (error?: Error) => {
          if (error) log("rate-limits").warn({ err: error }, "could not create the rate-limit table; counting in memory");
          resolve(error ? memory : postgres);
        },
      );
    });
  } else {
    found = Promise.resolve(memory);
  }
  state.__cpsRateLimiters.set(cacheKey, found);
  return found;
}

/** Counts one request for `key` (an API key id, a session id); throws a RATE_LIMITED ApiError beyond the limit. */
export async function consumeRateLimit(name: RateLimitName, key: string): Promise<void> {
  const limit = limitOf(name);
  if (limit.points === 0) return;
  try {
    await (await limiter(name, limit)).consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) {
      // The store failed (and its insurance did too): let the request through rather than refuse it.
      log("rate-limits").warn({ err: error, limit: name }, "rate limit store failed; request allowed");
      return;
    }
    metrics().rateLimited.inc({ limit: name });
    throw rateLimited(
      Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
      `${limit.points} requests per ${limit.durationSeconds === 1 ? "second" : "minute"}`,
    );
  }
}

/** The 429 answer of an endpoint outside the merchant-API wrapper (hosted fields): the spec's body and Retry-After. */
export function rateLimitedResponse(error: ApiError): Response {
  return new Response(JSON.stringify(error.toBody()), {
    status: error.status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": String(error.retryAfterSeconds ?? 1),
    },
  });
}
