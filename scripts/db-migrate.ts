// npm run db:migrate: applies pending migrations to DATABASE_URL, or to the embedded database.
import { migrateDatabase } from "../lib/db/migrations";
import { ensureDatabaseUrl } from "../lib/db/embedded-postgres";
import { config } from "../lib/env";

async function main(): Promise<void> {
  const stop = await ensureDatabaseUrl();
  try {
    const result = await migrateDatabase(config().DATABASE_URL!, { log: (line) => console.log(line), upgradeMode: config().defaultMode });
    console.log(`${result.applied.length} migration(s) applied, ${result.alreadyApplied.length} already applied.`);
  } finally {
    await stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
