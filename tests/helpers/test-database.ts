// A throwaway, migrated database for one test file. With TEST_DATABASE_URL (a PostgreSQL server
// and a role that may create databases) each file gets a new database on that server; without it,
// an in-memory embedded database (PGlite). Either way DATABASE_URL points at it while the file runs.
//
// The migrations run once per set of migrations, not once per file: the first file migrates a
// template (a PostgreSQL database `cps_template_<hash>`, or an embedded database's data folder
// dumped to .data-test/templates/<hash>.tar.gz) and every file clones it (CREATE DATABASE ...
// TEMPLATE, or PGlite started from the dump). The hash covers every migration's name and checksum,
// so a new or changed migration makes a new template. tests/integration/migrations.test.ts asks for
// `{ migrate: "now" }`: an empty database the migrations then run on, for real.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrateDatabase, readMigrations } from "@/lib/db/migrations";
import { disconnectDb } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { startEmbeddedFromDump } from "./embedded-from-dump";
import { eventually } from "./eventually";

export type DatabaseEngine = "postgres" | "embedded";

export interface TestDatabase {
  engine: DatabaseEngine;
  url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * "template" (the default): a clone of the migrated template. "now": an empty database on which
   * this call runs every migration itself (the migrations' own test). "never": an empty database.
   */
  migrate?: "template" | "now" | "never";
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEMPLATE_DIR = path.join(ROOT, ".data-test", "templates");
// Serializes the making of a PostgreSQL template between the test files that run side by side.
const TEMPLATE_LOCK_KEY = 72707370;

export function availableEngines(): DatabaseEngine[] {
  return process.env.TEST_DATABASE_URL ? ["postgres", "embedded"] : ["embedded"];
}

export function defaultEngine(): DatabaseEngine {
  return process.env.TEST_DATABASE_URL ? "postgres" : "embedded";
}

/** Names the current set of migrations: their names and checksums, in order. */
export function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const migration of readMigrations()) hash.update(`${migration.name}\n${migration.checksum}\n`);
  return hash.digest("hex").slice(0, 16);
}

export async function createTestDatabase(engine: DatabaseEngine = defaultEngine(), options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? "template";
  if (engine === "embedded") {
    if (migrate === "template") {
      const embedded = await startEmbeddedFromDump(await embeddedTemplate());
      return { engine, url: embedded.url, drop: () => embedded.stop() };
    }
    const embedded = await startEmbeddedPostgres({ memory: true, port: 0 });
    if (migrate === "now") await migrateDatabase(embedded.url);
    return { engine, url: embedded.url, drop: () => embedded.stop() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `cps_test_${randomBytes(6).toString("hex")}`;
  const template = migrate === "template" ? await postgresTemplate(adminUrl) : undefined;
  await withAdmin(adminUrl, (admin) => createDatabase(admin, name, template));
  const url = databaseUrl(adminUrl, name);
  if (migrate === "now") await migrateDatabase(url);
  return {
    engine,
    url,
    async drop() {
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
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

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

/**
 * CREATE DATABASE, from `template` when given. A small template copies fastest file by file
 * (STRATEGY FILE_COPY, PostgreSQL 15 and later; measured 0.5 s against 1.2 s for the default
 * WAL_LOG on the CI machine). PostgreSQL refuses to copy a database while another session is
 * connected to it (55006, the migration runner's session a moment after it closed): asked again then.
 */
async function createDatabase(admin: pg.Client, name: string, template?: string): Promise<void> {
  const version = Number((await admin.query<{ server_version_num: string }>("SHOW server_version_num")).rows[0]!.server_version_num);
  const sql = template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"${version >= 150000 ? " STRATEGY FILE_COPY" : ""}` : `CREATE DATABASE "${name}"`;
  await eventually(
    async () => {
      try {
        await admin.query(sql);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === "55006") return false;
        throw error;
      }
    },
    { what: `CREATE DATABASE ${name}${template ? ` from ${template}` : ""} (the template in use by another session)`, timeoutMs: 30_000, intervalMs: 100 },
  );
}

const postgresTemplates = new Map<string, Promise<string>>();

/** The migrated template database on this server, made once (by whichever file comes first). */
function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `cps_template_${migrationsHash()}`;
  const key = `${adminUrl} ${name}`;
  let made = postgresTemplates.get(key);
  if (!made) {
    made = withAdmin(adminUrl, async (admin) => {
      await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
      try {
        const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (exists.rowCount) return name;
        // Migrated under another name and renamed when complete: a file never clones half a template.
        const building = `${name}_${randomBytes(3).toString("hex")}`;
        await createDatabase(admin, building);
        try {
          await migrateDatabase(databaseUrl(adminUrl, building));
          await eventually(
            async () => {
              try {
                await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
                return true;
              } catch (error) {
                if ((error as { code?: string }).code === "55006") return false;
                throw error;
              }
            },
            { what: `the rename of ${building} (in use by another session)`, timeoutMs: 30_000 },
          );
        } catch (error) {
          await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
          throw error;
        }
        return name;
      } finally {
        await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
      }
    });
    made.catch(() => postgresTemplates.delete(key));
    postgresTemplates.set(key, made);
  }
  return made;
}

function pgliteVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string }).version;
}

let embeddedTemplateMade: Promise<Buffer> | undefined;

/**
 * The dump of a migrated embedded database, made once per set of migrations and kept under
 * .data-test/templates/ for the next run. Files side by side may both make it: each writes its own
 * file and renames it into place, so a reader never sees half a dump.
 */
function embeddedTemplate(): Promise<Buffer> {
  embeddedTemplateMade ??= (async () => {
    // The dump is PGlite's own data folder: a new PGlite may not read an older one's.
    const file = path.join(TEMPLATE_DIR, `pglite-${pgliteVersion()}-${migrationsHash()}.tar.gz`);
    if (existsSync(file)) return readFileSync(file);
    const embedded = await startEmbeddedFromDump();
    let dump: Buffer;
    try {
      await migrateDatabase(embedded.url);
      dump = await embedded.dump();
    } finally {
      await embedded.stop();
    }
    mkdirSync(TEMPLATE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(3).toString("hex")}`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
    return dump;
  })();
  embeddedTemplateMade.catch(() => (embeddedTemplateMade = undefined));
  return embeddedTemplateMade;
}
