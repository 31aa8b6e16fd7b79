// npm run bench [-- <name> ...]: runs the benchmarks in scripts/bench/ one after another (each
// against 127.0.0.1 only) and writes their reports to bench-results/. Speed and size targets live
// here, never in timed unit tests.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

const dir = path.resolve("scripts/bench");
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const available = readdirSync(dir)
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.replace(/\.ts$/, ""))
  .sort();
const selected = wanted.length ? wanted : available;
const unknown = selected.filter((name) => !available.includes(name));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; available: ${available.join(", ")}`);
  process.exit(2);
}
mkdirSync("bench-results", { recursive: true });
let failed = 0;
for (const name of selected) {
  console.log(`\n### ${name}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, `${name}.ts`)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_RESULTS_DIR: process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results"), NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) {
    console.error(`${name}: exited with ${result.status}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
