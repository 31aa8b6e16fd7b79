// npm run build: everything a production start needs, built once.
//  1. next build (with the hosted-field browser bundles, see next.config.mjs) into NEXT_DIST_DIR or .next/;
//  2. the launcher, the operator CLI and the migration runner as plain JavaScript in dist/.
// The build reads no secrets and no deployment settings: Next evaluates route modules while it
// collects page data, so it runs with CPS_LOCAL=1 (local defaults), exactly as `npm start` builds;
// every setting is read again when the server starts (lib/env.ts).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { buildServerScripts } from "./server-scripts.mjs";

const require = createRequire(import.meta.url);
const next = spawnSync(process.execPath, [require.resolve("next/dist/bin/next"), "build"], {
  stdio: "inherit",
  env: { ...process.env, CPS_LOCAL: "1", NEXT_TELEMETRY_DISABLED: "1" },
});
if (next.status !== 0) process.exit(next.status ?? 1);
for (const file of await buildServerScripts()) console.log(`built ${file}`);
