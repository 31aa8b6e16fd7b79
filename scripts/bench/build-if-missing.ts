// The production build a bench runs against: `next build` into `distDir` when no build is there
// (or when `rebuild` asks for a fresh one), so repeated bench runs reuse it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");

export function buildIfMissing(distDir: string, log: (line: string) => void, options: { rebuild?: boolean; env?: Record<string, string> } = {}): void {
  if (existsSync(path.join(distDir, "BUILD_ID")) && !options.rebuild) return;
  log(`building into ${distDir} (next build)...`);
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    stdio: "inherit",
    env: { ...process.env, ...options.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) throw new Error("next build failed");
}

/**
 * The worker's own script (dist/worker.js: a worker runs no Next.js, decision 0219), compiled again
 * (scripts/build/server-scripts.mjs) when a source is newer or when `rebuild` asks for it.
 */
export async function workerScript(log: (line: string) => void, options: { rebuild?: boolean } = {}): Promise<string> {
  const { checkServerScript } = await import("../build/freshness.mjs");
  if (options.rebuild || !checkServerScript("dist/worker.js").current) {
    log("compiling dist/worker.js and the other server scripts (scripts/build/server-scripts.mjs)...");
    const { buildServerScripts } = await import("../build/server-scripts.mjs");
    await buildServerScripts();
  }
  return path.resolve("dist/worker.js");
}
