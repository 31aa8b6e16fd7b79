// Adds up the JSON reports of every suite into the one closing line CI reads: "N passed, N failed".
// A suite whose report is missing counts as a failure: it did not run to the end.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "test-results";
const expected = ["lint", "typecheck", "build", "openapi-lint", "openapi-sdk", "inngest-embedded", "unit", "integration", "security", "faults", ...(process.env.SKIP_E2E === "1" ? [] : ["e2e", "e2e-strict-3ds"])];
let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;

for (const suite of expected) {
  const file = path.join(dir, `${suite}.json`);
  if (!existsSync(file)) {
    console.log(`${suite}: no report (the suite did not finish)`);
    missing++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  let p = 0, f = 0, s = 0;
  if (suite.startsWith("e2e")) {
    p = report.stats?.expected ?? 0;
    f = (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
    s = report.stats?.skipped ?? 0;
    if ((report.errors ?? []).length > 0) f += report.errors.length;
  } else {
    p = report.numPassedTests ?? 0;
    f = report.numFailedTests ?? 0;
    s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    if (report.success === false && f === 0) f = 1; // a file that failed to load
  }
  console.log(`${suite}: ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
failed += missing;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
