// Prisma CLI configuration: the schema is a folder of files, one per domain.
// The CLI never needs a database URL here: migrations are applied by scripts/db-migrate.ts.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
});
