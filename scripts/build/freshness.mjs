// Whether a production build is current: every file it is made from is older than the build. The
// one definition shared by `npm start` (which builds when the Next build is stale), the npm scripts
// that run a compiled script when it is current (scripts/run-script.mjs), the tests that start the
// service (which use `npm run build`'s output and never a stale one) and CI. Plain JavaScript, so
// that scripts/run-script.mjs can read it without tsx; its types are freshness.d.mts.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What `next build` is made from (relative to the repository root). */
export const NEXT_SOURCES = ["app", "components", "lib", "public", "prisma/schema", "packages/inngest-embedded", "next.config.mjs", "postcss.config.mjs", "package-lock.json", "tsconfig.json", "instrumentation.ts"];
/** What dist/ (scripts/build/server-scripts.mjs) is made from besides lib/ and the package: the launcher, the worker, the CLI, the migration runner. */
export const SERVER_SCRIPT_SOURCES = ["scripts", "lib", "packages/inngest-embedded", "package-lock.json", "tsconfig.json"];
/** The files `npm run build` writes into dist/ (scripts/build/server-scripts.mjs). */
export const SERVER_SCRIPT_OUTPUTS = ["dist/start.js", "dist/worker.js", "dist/cli.js", "dist/db-migrate.js"];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (child === "generated" || child === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function checkOutputs(outputs, sources, root) {
  for (const output of outputs) {
    const file = path.resolve(root, output);
    if (!existsSync(file)) return { current: false, reason: `${output} is missing` };
    const built = statSync(file).mtimeMs;
    const newer = sources.find((source) => newestMtime(path.resolve(root, source)) > built);
    if (newer) return { current: false, reason: `${newer} changed after ${output} was built` };
  }
  return { current: true };
}

/** The Next build in `distDir` (default NEXT_DIST_DIR or .next): its BUILD_ID newer than every source. */
export function checkNextBuild(distDir = process.env.NEXT_DIST_DIR || ".next", root = process.cwd()) {
  return checkOutputs([path.join(distDir, "BUILD_ID")], NEXT_SOURCES, root);
}

/** One compiled server script (`dist/cli.js` ...): newer than every source dist/ is made from. */
export function checkServerScript(output, root = process.cwd()) {
  return checkOutputs([output], SERVER_SCRIPT_SOURCES, root);
}

/** What `npm run build` made: the Next build and the server scripts in dist/. */
export function checkProductionBuild(distDir = process.env.NEXT_DIST_DIR || ".next", root = process.cwd()) {
  const next = checkNextBuild(distDir, root);
  return next.current ? checkOutputs(SERVER_SCRIPT_OUTPUTS, SERVER_SCRIPT_SOURCES, root) : next;
}
