// npm start, npm run cli / sandbox / db:migrate, and the launcher's worker process: node scripts/run-script.mjs <name> [args]. Runs the compiled
// dist/<name>.js that `npm run build` made when it is current (scripts/build/freshness.mjs), else
// the TypeScript source scripts/<name>.ts through tsx. Both are the same code; the compiled one
// starts in about half the CPU (no TypeScript loader: 0.8 s against 1.9 s for `cli --help`), which
// every operator command and every test or documented command that runs one pays.
// The script runs in this process, with this process's arguments after <name>, so that signals,
// standard input and the exit code are its own.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { checkServerScript } from "./build/freshness.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
/** The npm scripts' names, and the compiled file of each (scripts/build/server-scripts.mjs). */
const SCRIPTS = { start: "dist/start.js", worker: "dist/worker.js", cli: "dist/cli.js", sandbox: "dist/sandbox.js", "db-migrate": "dist/db-migrate.js" };

const name = process.argv[2];
if (!Object.hasOwn(SCRIPTS, name ?? "")) {
  console.error(`usage: node scripts/run-script.mjs ${Object.keys(SCRIPTS).join("|")} [arguments]`);
  process.exit(2);
}
// What the script reads as its own arguments (process.argv.slice(2)): those after <name>.
process.argv.splice(2, 1);
const compiled = SCRIPTS[name];
if (checkServerScript(compiled, ROOT).current) {
  await import(pathToFileURL(path.join(ROOT, compiled)).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(ROOT, "scripts", `${name}.ts`)).href);
}
