// docs/operations.md, "Backups and restore": the runbook's pg_dump / pg_restore commands, run as
// written against a database on the test PostgreSQL server, give a database that the service can
// use at once with the same keys: stored cards decrypt, API keys authenticate, no migration is
// pending. Without the card-data key the restored card numbers stay unreadable.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { decryptPan } from "@/lib/cards/card-encryption";
import { hashApiKey } from "@/lib/api-keys/api-key-secret";
import { migrateDatabase } from "@/lib/db/migrations";
import { createStoredCard, createTestMerchant } from "../../helpers/merchant-factories";
import { useTestDatabase } from "../../helpers/test-database";

const run = promisify(execFile);
const adminUrl = process.env.TEST_DATABASE_URL;
// pg_dump needs a PostgreSQL server: CI and `npm test` with TEST_DATABASE_URL have one.
const database = useTestDatabase(adminUrl ? "postgres" : "embedded");
const work = mkdtempSync(path.join(os.tmpdir(), "cps-backup-"));
const restoredName = `cps_restore_${randomBytes(5).toString("hex")}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

afterAll(async () => {
  await disconnectDb();
  await admin(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`);
});

describe.runIf(adminUrl)("backup and restore of the PostgreSQL database (runbook commands)", () => {
  it("pg_dump -Fc, then pg_restore into a new database: cards, API keys and the migration history come back", async () => {
    const { merchantId, apiKey } = await createTestMerchant({ name: "Backed up" });
    const cardId = await createStoredCard(merchantId, { pan: "5555555555554444" });
    const dump = path.join(work, "cps.dump");

    // The runbook: pg_dump --format=custom --no-owner --file=cps.dump "$DATABASE_URL"
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, database.current().url]);
    // The runbook: createdb, then pg_restore --no-owner --exit-on-error --dbname="$RESTORE_URL" cps.dump
    await admin(`CREATE DATABASE "${restoredName}"`);
    const restoreUrl = new URL(database.current().url);
    restoreUrl.pathname = `/${restoredName}`;
    await run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${restoreUrl}`, dump]);

    // The service pointed at the restored database, with the same keys.
    await disconnectDb();
    process.env.DATABASE_URL = restoreUrl.toString();
    resetConfig();
    expect((await migrateDatabase(restoreUrl.toString())).applied).toEqual([]);
    const card = await db().storedCard.findUniqueOrThrow({ where: { id: cardId } });
    expect(decryptPan(card)).toBe("5555555555554444");
    const key = await db().apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(apiKey) } });
    expect(key.merchantId).toBe(merchantId);

    // The dump alone does not give the card numbers away: another CARD_DATA_KEY cannot open them.
    const savedKey = process.env.CARD_DATA_KEY;
    process.env.CARD_DATA_KEY = randomBytes(32).toString("base64");
    resetConfig();
    try {
      expect(() => decryptPan(card)).toThrow();
    } finally {
      process.env.CARD_DATA_KEY = savedKey;
      resetConfig();
    }
  });
});
