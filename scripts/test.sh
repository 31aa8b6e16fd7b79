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

# One test result for a check that is not a test runner: the JSON a runner's report would have.
result() {
  local name=$1 ok=$2
  printf '{"numPassedTests":%d,"numFailedTests":%d,"success":%s}\n' "$ok" "$((1 - ok))" "$([ "$ok" = 1 ] && echo true || echo false)" >"$results/$name.json"
}

# One production build for every suite that starts the service (integration, security, faults, both
# browser passes): `npm run build`'s .next and dist/, made here only when it is not current (.ci/run
# makes it first). From here on a missing or stale build is an error, never rebuilt or used silently
# (tests/helpers/service-process.ts). One test result.
# The type check below is the build's too (CPS_BUILD_SKIP_TYPECHECK, next.config.mjs).
if npx tsx scripts/build/require-current.ts --quiet || CPS_BUILD_SKIP_TYPECHECK=1 npm run --silent build; then build_ok=1; else build_ok=0; status=1; fi
result build "$build_ok"
export CPS_TEST_PREBUILT=1

# The OpenAPI document as SDK generators and linters read it (scripts/openapi/): Redocly's lint with
# every warning an error, openapi-generator's Go client generated without warnings and compiled, and
# the documented generators run against a served document. One test result each.
openapi_check() {
  if bash "scripts/openapi/$2"; then result "$1" 1; else result "$1" 0; return 1; fi
}

# The OpenAPI checks and the browser passes, in a lane of their own beside the vitest suites: they
# mostly wait (on Java and Go, on Chromium, on the services they start and their jobs), while the
# vitest suites keep both cores busy; one after the other they left a core idle for about half of
# npm test. Each browser pass starts its own service on E2E_PORT with a fresh data folder, so they
# stay in order within the lane. The lane's output goes to test-results/side-lane.log and is printed
# when it ends.
side_lane() {
  local lane_status=0
  openapi_check openapi-lint lint.sh || lane_status=1
  openapi_check openapi-sdk sdk-check.sh || lane_status=1
  # The clients docs/integration.md tells merchants to generate (openapi-typescript, openapi-generator's
  # typescript-fetch and go), from the documents a running service serves, compiled, one call each.
  openapi_check openapi-clients clients-check.sh || lane_status=1
  [ "${SKIP_E2E:-0}" = "1" ] && return $lane_status
  PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json || lane_status=1
  # The same service with the strict 3DS Server sandbox mounted, for the specs written for it (playwright.config.ts).
  THREEDS_SANDBOX=strict PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e-strict-3ds.json" npx playwright test --reporter=list,json || lane_status=1
  # Every documented command, run as a reader pastes it, against a service of its own (a fresh data
  # folder): its operator lines change that service's data (stored cards re-sealed, operations
  # settled), which no other spec may find under it.
  DOCUMENTED_COMMANDS=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$results/documented-commands.json" npx playwright test --reporter=list,json || lane_status=1
  return $lane_status
}
side_lane >"$results/side-lane.log" 2>&1 &
side_pid=$!

# The linter (the import rule between the rooms included, eslint.config.mjs) and the type check of
# the whole tree (tests and scripts too), one test result each, side by side: each uses one core
# (the side lane has started beside them).
# `next build` checks types as well, so a type error anywhere would otherwise surface as every
# build-based test failing. Their output is printed in this order when both are done.
npm run --silent lint >"$results/lint.log" 2>&1 &
lint_pid=$!
npm run --silent typecheck >"$results/typecheck.log" 2>&1 &
types_pid=$!
if wait "$lint_pid"; then lint_ok=1; else lint_ok=0; status=1; fi
if wait "$types_pid"; then types_ok=1; else types_ok=0; status=1; fi
cat "$results/lint.log" "$results/typecheck.log"
result lint "$lint_ok"
result typecheck "$types_ok"

# The fault suite mostly waits (time-outs, leases, retry schedules: alone it leaves more than half of
# both cores idle), so it runs beside the suites below rather than after them; its output is printed
# when it ends. Its databases are its own (a template clone per file), as every suite's are.
npx vitest run --project faults --passWithNoTests --reporter=default --reporter=json --outputFile.json="$results/faults.json" >"$results/faults.log" 2>&1 &
faults_pid=$!

npx vitest run --project inngest-embedded --reporter=default --reporter=json --outputFile.json="$results/inngest-embedded.json" || status=1
npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$results/unit.json" || status=1
npx vitest run --project integration --reporter=default --reporter=json --outputFile.json="$results/integration.json" || status=1
# The security suite hands the service private and public addresses: it runs in a network namespace
# with loopback only, so that even a broken egress guard cannot send a packet off the machine. A
# PostgreSQL server outside the namespace is out of reach there: with TEST_DATABASE_URL set (CI), a
# throwaway cluster of its own starts inside the namespace (about a fifth less CPU than the embedded
# database for this suite); without it, the embedded database, as for the other suites.
security_suite() {
  local rc pg_dir=""
  ip link set lo up
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    # Its own folder, and a port of the namespace's own: never the cluster the caller runs outside it.
    pg_dir=$(mktemp -d /tmp/cps-security-pg-XXXX)
    eval "$(PG_TEST_PORT=55432 PG_TEST_DIR=$pg_dir bash scripts/pg-test-cluster.sh start)" || return 1
  fi
  npx vitest run --project security --passWithNoTests --reporter=default --reporter=json --outputFile.json="$results/security.json"
  rc=$?
  if [ -n "$pg_dir" ]; then PG_TEST_PORT=55432 PG_TEST_DIR=$pg_dir bash scripts/pg-test-cluster.sh stop; rm -rf "$pg_dir"; fi
  return $rc
}
if unshare -n true 2>/dev/null; then
  export -f security_suite
  results=$results unshare -n bash -c 'security_suite' || status=1
else
  echo "security suite: not run (it needs 'unshare -n', that is root, to run without a network)"
fi
wait "$faults_pid" || status=1
echo "=== the fault suite, run beside the suites above"
cat "$results/faults.log"

wait "$side_pid" || status=1
echo "=== the OpenAPI checks and the browser passes (e2e, strict 3-D Secure, documented commands), run beside the suites above"
cat "$results/side-lane.log"

node scripts/test-totals.mjs "$results" || status=1
exit $status
