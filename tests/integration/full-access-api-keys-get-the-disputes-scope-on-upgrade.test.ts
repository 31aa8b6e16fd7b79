// Upgrading past the `disputes` scope (issue 40; docs/decisions/0209-api-keys-made-before-a-scope-existed.md):
// a database migrated as it was when that scope came (up to the disputes-and-settlements migration),
// holding the keys merchants made until then, then migrated by the committed history as a deploy
// does. Keys that held every scope of their time get the new one, as a Stripe secret key gains a
// new resource; restricted keys stay restricted, as a restricted key's new resources are "None".
import pg from "pg";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "@/lib/api-keys/api-key-scopes";
import { MIGRATIONS_DIR, migrateDatabase, readMigrations } from "@/lib/db/migrations";
import { newId } from "@/lib/ids";
import { createTestDatabase, defaultEngine, type TestDatabase } from "../helpers/test-database";

/** The last migration of the history in which `disputes` was added to the scopes (in code, not in the data). */
const SCOPE_ADDED_WITH = "20261129171720_disputes_and_settlements";
/** Every scope a key could hold before `disputes` existed: what a key of that time with full access has. */
const SCOPES_BEFORE = ["payments", "follow-ups", "payouts", "read"];

let database: TestDatabase;
let client: pg.Client;
let historyThen: string;
const keys: Record<string, string> = {};

async function insertKey(label: string, scopes: string[] | null, extra: { revokedAt?: Date; expiresAt?: Date; mode?: "test" | "live" } = {}) {
  const id = newId();
  keys[label] = id;
  await client.query(
    `INSERT INTO "ApiKey" ("id", "merchantId", "name", "prefix", "hash", "scopes", "mode", "revokedAt", "expiresAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, "100000000001", label, `cps_test_${id.slice(0, 6)}`, `hash-${id}`, scopes, extra.mode ?? "test", extra.revokedAt ?? null, extra.expiresAt ?? null],
  );
}

async function scopesOf(label: string): Promise<string[]> {
  const { rows } = await client.query<{ scopes: string[] }>(`SELECT "scopes" FROM "ApiKey" WHERE "id" = $1`, [keys[label]]);
  return rows[0]!.scopes;
}

beforeAll(async () => {
  database = await createTestDatabase(defaultEngine(), { migrate: "never" });
  // The history as it was when the scope came: every committed migration up to SCOPE_ADDED_WITH.
  historyThen = mkdtempSync(path.join(os.tmpdir(), "cps-history-"));
  const then = readMigrations(MIGRATIONS_DIR).filter((migration) => migration.name <= SCOPE_ADDED_WITH);
  expect(then.at(-1)?.name).toBe(SCOPE_ADDED_WITH);
  for (const migration of then) cpSync(path.join(MIGRATIONS_DIR, migration.name), path.join(historyThen, migration.name), { recursive: true });
  await migrateDatabase(database.url, { dir: historyThen });

  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(`INSERT INTO "Merchant" ("id", "name", "updatedAt") VALUES ('100000000001', 'Shop of that time', now())`);
  await insertKey("full, live", SCOPES_BEFORE, { mode: "live" });
  await insertKey("full, in another order", ["read", "payouts", "follow-ups", "payments"]);
  await insertKey("full, rolled and still valid for a day", SCOPES_BEFORE, { expiresAt: new Date(Date.now() + 86_400_000) });
  await insertKey("restricted, the CLI's defaults", ["payments", "follow-ups", "read"]);
  await insertKey("restricted, read only", ["read"]);
  await insertKey("restricted, payouts and read", ["payouts", "read"]);
  await insertKey("already has it", [...SCOPES_BEFORE, "disputes"]);
  await insertKey("full but revoked", SCOPES_BEFORE, { revokedAt: new Date() });
  await insertKey("full but expired after a roll", SCOPES_BEFORE, { expiresAt: new Date(Date.now() - 3_600_000) });

  // The upgrade: the committed history, as `npm run db:migrate` applies it at a deploy.
  await migrateDatabase(database.url);
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
  if (historyThen) rmSync(historyThen, { recursive: true, force: true });
});

describe("API keys made before the disputes scope existed, after the upgrade", () => {
  it("a key that held every scope of its time (live or test, in any order, or made by a roll) holds every scope now, disputes included", async () => {
    for (const label of ["full, live", "full, in another order", "full, rolled and still valid for a day"])
      expect((await scopesOf(label)).sort(), label).toEqual([...API_KEY_SCOPES].sort());
  });

  it("a restricted key stays as it was: it is given no scope it was not chosen with", async () => {
    expect(await scopesOf("restricted, the CLI's defaults")).toEqual(["payments", "follow-ups", "read"]);
    expect(await scopesOf("restricted, read only")).toEqual(["read"]);
    expect(await scopesOf("restricted, payouts and read")).toEqual(["payouts", "read"]);
  });

  it("a key that has it already keeps it once; a revoked or expired key is not changed", async () => {
    expect(await scopesOf("already has it")).toEqual([...SCOPES_BEFORE, "disputes"]);
    expect(await scopesOf("full but revoked")).toEqual(SCOPES_BEFORE);
    expect(await scopesOf("full but expired after a roll")).toEqual(SCOPES_BEFORE);
  });

  it("names every scope there is: a scope added later needs its own migration for full-access keys (decision 0209), and a test as this one", () => {
    expect([...API_KEY_SCOPES].sort(), "a new scope: give it to the keys that hold every other one, in a migration").toEqual([...SCOPES_BEFORE, "disputes"].sort());
  });
});
