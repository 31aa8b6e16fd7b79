#!/usr/bin/env bash
# npm test: every suite (unit, integration against a real database, end-to-end in Chromium), on one
# production build made at the start when it is not current, then one line with the totals of all of
# them: "N passed, N failed".
# TEST_DATABASE_URL selects a PostgreSQL server for the integration suite (CI sets it);
# without it the embedded database is used.
set -u
cd "$(dirname "$0")/.."
results=test-results
mkdir -p "$results"
rm -f "$results"/*.json
status=0

# The linter, the import rule between the rooms included (eslint.config.mjs): one test result.
if npm run --silent lint; then lint_ok=1; else lint_ok=0; status=1; fi
printf '{"numPassedTests":%d,"numFailedTests":%d,"success":%s}\n' "$lint_ok" "$((1 - lint_ok))" "$([ "$lint_ok" = 1 ] && echo true || echo false)" >"$results/lint.json"
# The type check of the whole tree (tests and scripts too): one test result. `next build` checks
# types as well, so a type error anywhere would otherwise surface as every build-based test failing.
if npm run --silent typecheck; then types_ok=1; else types_ok=0; status=1; fi
printf '{"numPassedTests":%d,"numFailedTests":%d,"success":%s}\n' "$types_ok" "$((1 - types_ok))" "$([ "$types_ok" = 1 ] && echo true || echo false)" >"$results/typecheck.json"

# One production build for every suite that starts the service (integration, security, faults, both
# browser passes): `npm run build`'s .next and dist/, made here only when it is not current (.ci/run
# makes it first). From here on a missing or stale build is an error, never rebuilt or used silently
# (tests/helpers/service-process.ts). One test result.
# The type check above is the build's too (CPS_BUILD_SKIP_TYPECHECK, next.config.mjs).
if npx tsx scripts/build/require-current.ts --quiet || CPS_BUILD_SKIP_TYPECHECK=1 npm run --silent build; then build_ok=1; else build_ok=0; status=1; fi
printf '{"numPassedTests":%d,"numFailedTests":%d,"success":%s}\n' "$build_ok" "$((1 - build_ok))" "$([ "$build_ok" = 1 ] && echo true || echo false)" >"$results/build.json"
export CPS_TEST_PREBUILT=1

# The OpenAPI document as SDK generators and linters read it (scripts/openapi/): Redocly's lint with
# every warning an error, openapi-generator's Go client generated without warnings and compiled, and
# the documented generators run against a served document. One test result each.
openapi_check() {
  if bash "scripts/openapi/$2"; then ok=1; else ok=0; status=1; fi
  printf '{"numPassedTests":%d,"numFailedTests":%d,"success":%s}\n' "$ok" "$((1 - ok))" "$([ "$ok" = 1 ] && echo true || echo false)" >"$results/$1.json"
}
openapi_check openapi-lint lint.sh
openapi_check openapi-sdk sdk-check.sh
# The clients docs/integration.md tells merchants to generate (openapi-typescript, openapi-generator's
# typescript-fetch and go), from the documents a running service serves, compiled, one call each.
openapi_check openapi-clients clients-check.sh

# The browser passes, in a lane of their own beside the vitest suites: they mostly wait (on Chromium,
# on the service they start and its jobs), while the vitest suites keep both cores busy; one after the
# other they left a core idle for about half of npm test. Each pass starts its own service on
# E2E_PORT with a fresh data folder, so the three stay in order within the lane. Their output goes
# to test-results/browser-lane.log and is printed when the lane ends.
browser_lane() {
  local lane_status=0
  PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json || lane_status=1
  # The same service with the strict 3DS Server sandbox mounted, for the specs written for it (playwright.config.ts).
  THREEDS_SANDBOX=strict PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e-strict-3ds.json" npx playwright test --reporter=list,json || lane_status=1
  # Every documented command, run as a reader pastes it, against a service of its own (a fresh data
  # folder): its operator lines change that service's data (stored cards re-sealed, operations
  # settled), which no other spec may find under it.
  DOCUMENTED_COMMANDS=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$results/documented-commands.json" npx playwright test --reporter=list,json || lane_status=1
  return $lane_status
}
browser_pid=""
if [ "${SKIP_E2E:-0}" != "1" ]; then
  browser_lane >"$results/browser-lane.log" 2>&1 &
  browser_pid=$!
fi

npx vitest run --project inngest-embedded --reporter=default --reporter=json --outputFile.json="$results/inngest-embedded.json" || status=1
npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$results/unit.json" || status=1
npx vitest run --project integration --reporter=default --reporter=json --outputFile.json="$results/integration.json" || status=1
# The security suite hands the service private and public addresses: it runs in a network namespace
# with loopback only, so that even a broken egress guard cannot send a packet off the machine. A
# PostgreSQL server outside the namespace is out of reach there, so it uses the embedded database.
if unshare -n true 2>/dev/null; then
  env -u TEST_DATABASE_URL unshare -n sh -c 'ip link set lo up && exec npx vitest run --project security --passWithNoTests --reporter=default --reporter=json --outputFile.json="$0/security.json"' "$results" || status=1
else
  echo "security suite: not run (it needs 'unshare -n', that is root, to run without a network)"
fi
npx vitest run --project faults --passWithNoTests --reporter=default --reporter=json --outputFile.json="$results/faults.json" || status=1

if [ -n "$browser_pid" ]; then
  wait "$browser_pid" || status=1
  echo "=== the browser passes (e2e, strict 3-D Secure, documented commands), run beside the suites above"
  cat "$results/browser-lane.log"
fi

node scripts/test-totals.mjs "$results" || status=1
exit $status
