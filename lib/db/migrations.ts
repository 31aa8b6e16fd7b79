// Applies the committed SQL migrations of prisma/migrations and records them in
// `_prisma_migrations` exactly as `prisma migrate deploy` does (same table, sha256 checksum of
// migration.sql), so both tools accept the same history. Used because the Prisma CLI cannot
// fetch its schema-engine binary here (docs/decisions/0001-prisma-without-its-binaries.md).
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma/migrations");

// Prisma's own definition of the table (schema-engine, sql-migration-connector).
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrateOptions {
  dir?: string;
  log?: (line: string) => void;
  /**
   * The mode existing rows take when a migration gives them one (test and live mode, issue 27): the
   * service passes "test" in local mode and "live" in production; set as `cps.upgrade_mode` for each
   * migration's transaction. Absent: migrations read no setting and choose live, as they do under
   * `prisma migrate deploy`.
   */
  upgradeMode?: "test" | "live";
}

/** Applies every pending migration in name order, each in its own transaction. */
export async function migrateDatabase(connectionString: string, options: MigrateOptions = {}): Promise<MigrationResult> {
  const log = options.log ?? (() => {});
  const migrations = readMigrations(options.dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await createMigrationsTable(client);
    const { rows } = await client.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
    );
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${failed.migration_name} failed earlier and was not rolled back. Fix the database, then mark it rolled back (prisma migrate resolve --rolled-back ${failed.migration_name}).`,
      );
    }
    const applied = new Map(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => [row.migration_name, row]));
    for (const [name, row] of applied) {
      const local = migrations.find((migration) => migration.name === name);
      if (!local) {
        throw new MigrationError(`Migration ${name} is applied to the database but missing from ${options.dir ?? MIGRATIONS_DIR}.`);
      }
      if (local.checksum !== row.checksum) {
        throw new MigrationError(`Migration ${name} was changed after it was applied (checksum differs). Migrations are append-only.`);
      }
    }
    const result: MigrationResult = { applied: [], alreadyApplied: [...applied.keys()] };
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      if (await applyOne(client, migration, options.upgradeMode)) {
        log(`applied ${migration.name}`);
        result.applied.push(migration.name);
      } else {
        result.alreadyApplied.push(migration.name);
      }
    }
    return result;
  } finally {
    await client.end();
  }
}

/**
 * Creates the history table under the migration lock: two CREATE TABLE IF NOT EXISTS at the same
 * moment on an empty database both pass the "exists" check, and the second dies on PostgreSQL's
 * catalog (duplicate key value violates unique constraint "pg_type_typname_nsp_index"), so of
 * processes started together on a fresh database one would not come up.
 */
async function createMigrationsTable(client: pg.Client): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Applies one migration in one transaction under a transaction-scoped advisory lock, after checking
 * again that no other process applied it meanwhile. (A session-level lock would not do: the
 * embedded database serves every connection from one backend, but it does serialize transactions.)
 * Returns false when another process had already applied it.
 */
async function applyOne(client: pg.Client, migration: MigrationFile, upgradeMode: MigrateOptions["upgradeMode"]): Promise<boolean> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    if (upgradeMode) await client.query("SELECT set_config('cps.upgrade_mode', $1, true)", [upgradeMode]);
    const done = await client.query(
      `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      [migration.name],
    );
    if (done.rowCount) {
      await client.query("ROLLBACK");
      return false;
    }
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK");
    const message = error instanceof Error ? error.message : String(error);
    // The transaction was rolled back, so the database is as before: record the attempt as rolled
    // back (as `prisma migrate resolve --rolled-back` would) and let the next run try again.
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, logs, rolled_back_at, applied_steps_count) VALUES ($1, $2, $3, now(), $4, now(), 0)`,
      [randomUUID(), migration.checksum, migration.name, message],
    );
    throw new MigrationError(`Migration ${migration.name} failed: ${message}`);
  }
}
