// Generates the Prisma client offline. `prisma generate` wants to download its schema-engine
// binary, which it does not use for generation; pointing PRISMA_SCHEMA_ENGINE_BINARY at any
// existing file makes it skip the download (docs/decisions/0001-prisma-without-its-binaries.md).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
let prismaCli;
try {
  prismaCli = require.resolve("prisma/build/index.js");
} catch {
  // A production install (npm install --omit=dev) has no Prisma CLI and needs no client here:
  // the build (.next/, dist/) already contains the generated client.
  console.log("prisma generate skipped: the prisma CLI is not installed (production dependencies only)");
  process.exit(0);
}
const result = spawnSync(process.execPath, [prismaCli, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
