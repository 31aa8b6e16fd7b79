// Adds up the JSON reports of every suite into the one closing line CI reads: "N passed, N failed".
// A suite whose report is missing counts as a failure: it did not run to the end.
// The failed tests are named too, here and in `<dir>/failures.txt`, which .ci/run prints again just
// before its last line: what CI shows of a run is its end, and a count alone says nothing to fix.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "test-results";
/** The suites Playwright runs (scripts/test.sh): their reports have Playwright's shape. */
const PLAYWRIGHT_SUITES = ["e2e", "e2e-strict-3ds", "documented-commands"];
const expected = ["lint", "typecheck", "build", "openapi-lint", "openapi-sdk", "openapi-clients", "inngest-embedded", "unit", "integration", "security", "faults", ...(process.env.SKIP_E2E === "1" ? [] : PLAYWRIGHT_SUITES)];
let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;
/** One line per failed test: suite, file, title, the first line of its error. */
const failures = [];
const firstLine = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((line) => line.trim() !== "")?.trim().slice(0, 200) ?? "";
/**
 * The last lines of an error that are not stack frames, indented under its line: a service that
 * exited while starting says why in the last lines of its output (the first line only says that it
 * exited), and CI shows the end of a run, not the whole log.
 */
const tail = (text, lines = 12) =>
  String(text ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "" && !/^\s*at\s/.test(line) && !line.includes("node_modules/"))
    .slice(1)
    .slice(-lines)
    .map((line) => `      > ${line.trim().slice(0, 200)}`)
    .join("\n");
const withTail = (line, text) => {
  const lines = tail(text);
  return lines ? `${line}\n${lines}` : line;
};

/** Playwright's report nests suites; every test whose last result is not the expected one. */
function playwrightFailures(suite, node, file) {
  for (const child of node.suites ?? []) playwrightFailures(suite, child, child.file ?? file);
  for (const spec of node.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === "expected" || test.status === "skipped") continue;
      const last = test.results?.at(-1);
      failures.push(withTail(`${suite} | ${spec.file ?? file} | ${spec.title} (${test.status}) | ${firstLine(last?.error?.message)}`, last?.error?.message));
    }
  }
}

for (const suite of expected) {
  const file = path.join(dir, `${suite}.json`);
  if (!existsSync(file)) {
    console.log(`${suite}: no report (the suite did not finish)`);
    failures.push(`${suite} | no report: the suite did not finish`);
    missing++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  let p = 0, f = 0, s = 0;
  if (PLAYWRIGHT_SUITES.includes(suite)) {
    p = report.stats?.expected ?? 0;
    f = (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
    s = report.stats?.skipped ?? 0;
    if ((report.errors ?? []).length > 0) f += report.errors.length;
    for (const top of report.suites ?? []) playwrightFailures(suite, top, top.file);
    for (const error of report.errors ?? []) failures.push(`${suite} | (outside any test) | ${firstLine(error.message)}`);
  } else {
    p = report.numPassedTests ?? 0;
    f = report.numFailedTests ?? 0;
    s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    if (report.success === false && f === 0) f = 1; // a file that failed to load
    for (const file of report.testResults ?? []) {
      const name = path.relative(process.cwd(), file.name ?? "");
      for (const test of file.assertionResults ?? []) {
        if (test.status === "failed") failures.push(withTail(`${suite} | ${name} | ${test.fullName ?? test.title} | ${firstLine(test.failureMessages?.[0])}`, test.failureMessages?.[0]));
      }
      if (file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed")) {
        failures.push(withTail(`${suite} | ${name} | (the file itself) | ${firstLine(file.message)}`, file.message));
      }
    }
  }
  console.log(`${suite}: ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
failed += missing;
writeFileSync(path.join(dir, "failures.txt"), failures.map((line) => `${line}\n`).join(""));
if (failures.length > 0) {
  console.log(`failed tests (${failures.length}):`);
  for (const line of failures) console.log(`  ${line}`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
