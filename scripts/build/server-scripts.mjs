// Build step: compiles the launcher, the worker, the operator CLI, the migration runner and the standalone sandboxes from TypeScript to
// plain JavaScript in dist/, so that a production start needs neither tsx nor esbuild at run time.
// Packages stay external (they are installed as production dependencies); our own sources (lib/,
// and the workspace package packages/inngest-embedded, which ships TypeScript) are bundled in. Run by `npm run build` (scripts/build/build.mjs) after `next build`; by hand: node scripts/build/server-scripts.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SERVER_SCRIPTS = {
  "start.js": "scripts/start.ts",
  "cli.js": "scripts/cli.ts",
  "db-migrate.js": "scripts/db-migrate.ts",
  // The standalone sandboxes, for test mode with separate web and worker processes (docs/operations.md):
  // a production install has no tsx to run scripts/sandbox.ts with.
  "sandbox.js": "scripts/sandbox.ts",
  // A worker process (ROLE=worker) runs no Next.js (decision 0219): the launcher runs this instead.
  "worker.js": "scripts/worker.ts",
};

/**
 * `next/server` and the like are CommonJS files of the next package without an exports map: Node's
 * ESM loader finds them only by their full name (`next/server.js`). The worker's code reaches them
 * (lib/jobs/serve-endpoint-guard.ts hands the Inngest SDK a NextRequest).
 */
function nextEntryFiles() {
  return {
    name: "next-entry-files",
    setup(build) {
      build.onResolve({ filter: /^next\/[a-z-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
    },
  };
}

/** Our workspace packages are TypeScript sources: bundled, not left to Node to load. */
function workspaceSources(root) {
  return {
    name: "workspace-sources",
    setup(build) {
      build.onResolve({ filter: /^@cps\/inngest-embedded$/ }, () => ({ path: path.join(root, "packages/inngest-embedded/src/index.ts") }));
    },
  };
}

/** One script compiled as the server scripts are: our sources bundled, packages left to Node. */
export async function buildScript(root, entry, outfile) {
  const { build } = await import("esbuild");
  await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    packages: "external",
    plugins: [workspaceSources(root), nextEntryFiles()],
    tsconfig: path.join(root, "tsconfig.json"),
    sourcemap: true,
    logLevel: "warning",
    banner: { js: "// Built by scripts/build/server-scripts.mjs from " + entry + "; do not edit." },
  });
}

export async function buildServerScripts(root = process.cwd()) {
  for (const [out, entry] of Object.entries(SERVER_SCRIPTS)) await buildScript(root, entry, path.join(root, "dist", out));
  return Object.keys(SERVER_SCRIPTS).map((out) => `dist/${out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of await buildServerScripts()) console.log(file);
}
