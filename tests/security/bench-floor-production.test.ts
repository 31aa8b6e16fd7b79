// Security review 3, L6: BENCH_FLOORS=1 was accepted under NODE_ENV=production, which turned on an
// unauthenticated route that reads a body and INSERTs it. Production now refuses to start with it, as
// it refuses INNGEST_DEV. (The route's capped read is in bounded-body-endpoints.test.ts.)
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "@/lib/env";

const SECRETS = { SESSION_SECRET: "s".repeat(32), API_KEY_SECRET: "a".repeat(32), CARD_DATA_KEY: Buffer.alloc(32, 1).toString("base64") };

describe("L6: the benchmark floor is refused in production", () => {
  it("L6: NODE_ENV=production with BENCH_FLOORS=1 is a configuration error naming the variable", () => {
    expect(() => parseEnv({ NODE_ENV: "production", BENCH_FLOORS: "1", ...SECRETS })).toThrow(ConfigError);
    expect(() => parseEnv({ NODE_ENV: "production", BENCH_FLOORS: "1", ...SECRETS })).toThrow(/BENCH_FLOORS/);
  });

  it("L6: it stays possible locally (npm run bench) and in production without the flag", () => {
    expect(parseEnv({ NODE_ENV: "production", CPS_LOCAL: "1", BENCH_FLOORS: "1", ...SECRETS }).BENCH_FLOORS).toBe(true);
    expect(parseEnv({ NODE_ENV: "production", ...SECRETS }).BENCH_FLOORS).toBe(false);
  });
});
