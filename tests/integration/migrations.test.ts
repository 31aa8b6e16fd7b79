// The migration runner records history the way `prisma migrate deploy` does and refuses what
// Prisma refuses: changed or missing applied migrations.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrateDatabase, readMigrations } from "@/lib/db/migrations";
import { createTestDatabase, defaultEngine, type TestDatabase } from "../helpers/test-database";

const created: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((database) => database.drop()));
});

// A database the committed migrations were just run on, for real (not a clone of the suites' migrated
// template); migrations added here use their own folder and tables whose names cannot clash with the app's.
async function emptyDatabase(): Promise<string> {
  const database = await createTestDatabase(defaultEngine(), { migrate: "now" });
  created.push(database);
  return database.url;
}

function migrationsFolder(migrations: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cps-migrations-"));
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrateDatabase", () => {
  it("applied the committed history, recorded with Prisma's checksums", async () => {
    const url = await emptyDatabase();
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    const local = readMigrations(MIGRATIONS_DIR);
    expect(rows.map((row) => row.migration_name)).toEqual(local.map((migration) => migration.name));
    for (const [index, row] of rows.entries()) {
      expect(row.checksum).toBe(createHash("sha256").update(local[index]!.sql).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
    }
    // Running again applies nothing.
    const again = await migrateDatabase(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toHaveLength(local.length);
  });

  it("applies only what is new, in name order", async () => {
    const url = await emptyDatabase();
    const dir = migrationsFolder({ "20990101000000_first": `CREATE TABLE "mt_a" (id int);` });
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    expect((await migrateDatabase(url, { dir })).applied).toEqual(["20990101000000_first"]);
    mkdirSync(path.join(dir, "20990102000000_second"));
    writeFileSync(path.join(dir, "20990102000000_second", "migration.sql"), `ALTER TABLE "mt_a" ADD COLUMN name text;`);
    expect((await migrateDatabase(url, { dir })).applied).toEqual(["20990102000000_second"]);
    expect(await query(url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'mt_a' ORDER BY ordinal_position`)).toEqual([
      { column_name: "id" },
      { column_name: "name" },
    ]);
  });

  it("refuses a migration that was changed after it was applied", async () => {
    const url = await emptyDatabase();
    const dir = migrationsFolder({ "20990101000000_first": `CREATE TABLE "mt_b" (id int);` });
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    await migrateDatabase(url, { dir });
    writeFileSync(path.join(dir, "20990101000000_first", "migration.sql"), `CREATE TABLE "mt_b" (id bigint);`);
    await expect(migrateDatabase(url, { dir })).rejects.toThrow(/20990101000000_first was changed after it was applied/);
  });

  it("rolls a failing migration back completely and retries it on the next run", async () => {
    const url = await emptyDatabase();
    const dir = migrationsFolder({ "20990101000000_broken": `CREATE TABLE "mt_c" (id int);\nINSERT INTO "mt_c" VALUES ('not a number');` });
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    await expect(migrateDatabase(url, { dir })).rejects.toThrow(/20990101000000_broken failed/);
    expect(await query(url, `SELECT to_regclass('"mt_c"') AS table`)).toEqual([{ table: null }]);
    const [row] = await query<{ rolled_back_at: Date | null; logs: string }>(
      url,
      `SELECT rolled_back_at, logs FROM "_prisma_migrations" WHERE migration_name = '20990101000000_broken'`,
    );
    expect(row!.rolled_back_at).toBeInstanceOf(Date);
    expect(row!.logs).toMatch(/invalid input syntax/);
    writeFileSync(path.join(dir, "20990101000000_broken", "migration.sql"), `CREATE TABLE "mt_c" (id int);`);
    expect((await migrateDatabase(url, { dir })).applied).toEqual(["20990101000000_broken"]);
  });

  it("lets two processes migrate at once without applying anything twice", async () => {
    const url = await emptyDatabase();
    const dir = migrationsFolder({ "20990101000000_once": `CREATE TABLE "mt_d" (id int);` });
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const results = await Promise.all([migrateDatabase(url, { dir }), migrateDatabase(url, { dir })]);
    expect(results.flatMap((result) => result.applied)).toEqual(["20990101000000_once"]);
  });
});

// Started together on a database that has nothing yet (not even the migrations table), any number of
// processes must all come up: the table is created under the migration lock too, or two
// CREATE TABLE IF NOT EXISTS race in PostgreSQL's catalog (pg_type_typname_nsp_index).
describe.skipIf(!process.env.TEST_DATABASE_URL)("migrating a fresh PostgreSQL database from several processes at once", () => {
  async function freshDatabase(): Promise<string> {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = `cps_fresh_${randomBytes(6).toString("hex")}`;
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    created.push({
      engine: "postgres",
      url: url.toString(),
      async drop() {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      },
    });
    return url.toString();
  }

  it("six runners at once on an empty database, three times: every one succeeds, each migration applied once", async () => {
    for (let round = 0; round < 3; round++) {
      const url = await freshDatabase();
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => migrateDatabase(url)));
      const failed = results.filter((result) => result.status === "rejected").map((result) => String((result as PromiseRejectedResult).reason));
      expect(failed, `round ${round}`).toEqual([]);
      const applied = results.flatMap((result) => (result.status === "fulfilled" ? result.value.applied : []));
      expect(applied.sort()).toEqual(readMigrations(MIGRATIONS_DIR).map((migration) => migration.name));
    }
  }, 300_000);

  it("four `npm run db:migrate` processes started at the same moment on an empty database all exit 0", async () => {
    const url = await freshDatabase();
    const run = promisify(execFile);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => run("npm", ["run", "-s", "db:migrate"], { env: { ...process.env, DATABASE_URL: url }, timeout: 240_000 })),
    );
    const failed = results.filter((result) => result.status === "rejected").map((result) => String((result as PromiseRejectedResult).reason));
    expect(failed).toEqual([]);
    const rows = await query<{ count: string }>(url, `SELECT count(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
    expect(Number(rows[0]!.count)).toBe(readMigrations(MIGRATIONS_DIR).length);
  }, 300_000);
});
