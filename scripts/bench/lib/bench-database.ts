// Where a benchmark's throwaway database lives: BENCH_DATABASE_URL (a server where it may create
// databases), else a cluster of its own from scripts/pg-test-cluster.sh on BENCH_PG_PORT. Each
// benchmark names its own default port and data directory, so that two can run side by side.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The admin URL of the server the benchmark's database is made on. */
export function benchAdminUrl({ defaultPort, dataDir }: { defaultPort: string; dataDir: string }): string {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  const out = execFileSync("bash", ["scripts/pg-test-cluster.sh", "start"], {
    env: { ...process.env, PG_TEST_PORT: process.env.BENCH_PG_PORT ?? defaultPort, PG_TEST_DIR: dataDir },
  }).toString();
  const match = out.match(/TEST_DATABASE_URL=(\S+)/);
  if (!match?.[1]) throw new Error(`could not start PostgreSQL: ${out}`);
  return match[1];
}

/** A new empty database, `<prefix><8 hex digits>`, on the admin URL's server; its URL. */
async function createBenchDatabase(admin: string, prefix: string): Promise<string> {
  const name = `${prefix}${randomBytes(4).toString("hex")}`;
  await onServer(admin, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new database with the service's migrations, for a benchmark that runs the service in this process
 * (or in children that inherit its environment): DATABASE_URL names it, `env` is set beside it, and
 * the service's configuration is read again.
 */
export async function migratedBenchDatabase(admin: string, prefix: string, env: Record<string, string>): Promise<{ url: string; name: string }> {
  const url = await createBenchDatabase(admin, prefix);
  Object.assign(process.env, env, { DATABASE_URL: url });
  const { resetConfig } = await import("../../../lib/env");
  resetConfig();
  const { migrateDatabase } = await import("../../../lib/db/migrations");
  await migrateDatabase(url);
  return { url, name: new URL(url).pathname.slice(1) };
}

/** Drops the database `url` names, whoever is still connected to it. */
export async function dropBenchDatabase(admin: string, url: string): Promise<void> {
  await onServer(admin, (client) => client.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`));
}

async function onServer(admin: string, statement: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await statement(client);
  await client.end();
}
