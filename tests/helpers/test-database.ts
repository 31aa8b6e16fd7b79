// A throwaway, migrated database for one test file. With TEST_DATABASE_URL (a PostgreSQL server
// and a role that may create databases) each file gets a new database on that server; without it,
// an in-memory embedded database (PGlite). Either way DATABASE_URL points at it while the file runs.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrateDatabase } from "@/lib/db/migrations";
import { disconnectDb } from "@/lib/db";
import { resetConfig } from "@/lib/env";

export type DatabaseEngine = "postgres" | "embedded";

export interface TestDatabase {
  engine: DatabaseEngine;
  url: string;
  drop(): Promise<void>;
}

export function availableEngines(): DatabaseEngine[] {
  return process.env.TEST_DATABASE_URL ? ["postgres", "embedded"] : ["embedded"];
}

export function defaultEngine(): DatabaseEngine {
  return process.env.TEST_DATABASE_URL ? "postgres" : "embedded";
}

export async function createTestDatabase(engine: DatabaseEngine = defaultEngine()): Promise<TestDatabase> {
  if (engine === "embedded") {
    const embedded = await startEmbeddedPostgres({ memory: true, port: 0 });
    await migrateDatabase(embedded.url);
    return { engine, url: embedded.url, drop: () => embedded.stop() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `cps_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return {
    engine,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Gives the calling test file its own database, used by lib/db.ts's db() while the file runs. */
export function useTestDatabase(engine: DatabaseEngine = defaultEngine()): { current(): TestDatabase } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    process.env.DATABASE_URL = database.url;
    resetConfig();
  });
  afterAll(async () => {
    await disconnectDb();
    await database?.drop();
  });
  return {
    current() {
      if (!database) throw new Error("the test database is created in beforeAll");
      return database;
    },
  };
}
