// Exhausts the service's own database pool deterministically, for tests of what an overloaded
// service answers: the process-wide client gets a pool of ONE connection with a chosen wait for a
// free connection, and the test holds that connection in an open transaction. One connection,
// because the embedded database (PGlite) runs one transaction at a time: a second holder would wait
// for the first instead of holding a connection of its own.
import { afterAll } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { resetConfig } from "@/lib/env";

/**
 * Call at the top of a test file (after useTestDatabase): usePool(ms) gives the process a new client
 * whose queries wait at most `ms` for the pool's one connection; the variables are restored after the file.
 */
export function useExhaustiblePool(): { usePool(timeoutMs: number): Promise<void> } {
  const saved = { size: process.env.DATABASE_POOL_SIZE, timeout: process.env.DATABASE_POOL_TIMEOUT_MS };
  afterAll(() => {
    for (const [name, value] of [
      ["DATABASE_POOL_SIZE", saved.size],
      ["DATABASE_POOL_TIMEOUT_MS", saved.timeout],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  });
  return {
    async usePool(timeoutMs: number) {
      await disconnectDb();
      process.env.DATABASE_POOL_SIZE = "1";
      process.env.DATABASE_POOL_TIMEOUT_MS = String(timeoutMs);
      resetConfig();
    },
  };
}

/**
 * Holds the pool's connection in an open transaction until the returned release() is called, or at
 * the latest after `atMostMs` (so that code which waits for a connection without limit gets its
 * answer late instead of hanging the test).
 */
export async function holdThePoolsConnection(atMostMs: number): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const timer = setTimeout(release, atMostMs);
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const holding = db().$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      entered();
      await released;
    },
    { maxWait: 10_000, timeout: atMostMs + 10_000 },
  );
  await inside;
  return async () => {
    clearTimeout(timer);
    release();
    await holding;
  };
}
