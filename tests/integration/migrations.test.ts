// The migration runner records history the way `prisma migrate deploy` does and refuses what
// Prisma refuses: changed or missing applied migrations.
import { createHash } from "node:crypto";
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
