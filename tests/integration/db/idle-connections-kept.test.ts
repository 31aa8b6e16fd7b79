// A process's pooled connections outlive a quiet spell (decision 0224): node-postgres closes an
// idle connection after 10 s by default, and the next request then paid a new connection and the
// preparation of every hot statement on it again (decision 0216). DATABASE_POOL_IDLE_TIMEOUT_MS
// (ten minutes by default) says how long one is kept.
import { afterEach, describe, expect, it } from "vitest";
import { db, disconnectDb, hotSql } from "@/lib/db";
import { setEnv } from "@/tests/helpers/set-env";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const saved = { DATABASE_POOL_IDLE_TIMEOUT_MS: process.env.DATABASE_POOL_IDLE_TIMEOUT_MS };
afterEach(async () => {
  await disconnectDb();
  setEnv(saved);
});

/** A new pool of db() under DATABASE_POOL_IDLE_TIMEOUT_MS (undefined: the default), and the server process of its first connection. */
async function freshPool(idleTimeoutMs: string | undefined): Promise<number> {
  setEnv({ DATABASE_POOL_IDLE_TIMEOUT_MS: idleTimeoutMs });
  await disconnectDb();
  db();
  return backend();
}

/** The server process of the connection the pool hands out (one at a time: the same one while it lives). */
async function backend(): Promise<number> {
  const [row] = await hotSql().$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS "pid"`;
  return row!.pid;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The embedded database serves every pooled connection from one session (one backend pid): which
// connection answered shows on PostgreSQL only.
const onPostgres = defaultEngine() === "postgres";

/** Whether a server process still serves a connection (asked from a session of its own). */
async function alive(pid: number): Promise<boolean> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ alive: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1) AS "alive"`, [pid]);
    return rows[0]!.alive;
  } finally {
    await client.end();
  }
}

describe("pooled connections and quiet spells", () => {
  it.skipIf(!onPostgres)("keeps an idle connection past node-postgres's 10 s by default", async () => {
    const used = await freshPool(undefined);
    await sleep(10_500);
    expect(await alive(used)).toBe(true);
  }, 20_000);

  it.skipIf(!onPostgres)("closes an idle connection after DATABASE_POOL_IDLE_TIMEOUT_MS", async () => {
    const used = await freshPool("1000");
    await sleep(1_500);
    expect(await alive(used)).toBe(false);
  }, 20_000);

  it("survives the server ending an idle pooled connection (a restart, a fail-over, an operator): no crash, the next query gets a new one", async () => {
    const idle = await freshPool(undefined);
    // Ended from another session while the pool holds it idle. Without a listener for the pool's
    // "error" event, the closed connection's error is thrown from the socket's callback: an
    // uncaught exception, which ends a service's process (and fails this run as an unhandled error).
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`SELECT pg_terminate_backend($1)`, [idle]);
    } finally {
      await admin.end();
    }
    await sleep(200);
    const next = await backend();
    if (onPostgres) expect(next).not.toBe(idle);
  });

  it("refuses an idle time-out under a second, with the variable's name", async () => {
    setEnv({ DATABASE_POOL_IDLE_TIMEOUT_MS: "10" });
    const { config } = await import("@/lib/env");
    expect(() => config()).toThrow(/DATABASE_POOL_IDLE_TIMEOUT_MS/);
  });
});
