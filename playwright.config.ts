// End-to-end tests in Debian's Chromium (never a downloaded browser). The service is started the
// way a user starts it (`npm start`, on the production build npm run build made) on its own
// port, with a fresh data folder for every run.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./scripts/chromium";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? ".data-e2e";
/**
 * The service's in-process Clearhaus Merchant API sandbox (CLEARHAUS_REPORTING_SANDBOX_PORT), whose
 * scenario endpoints open disputes for the back-office specs: 1000 above the service's port by
 * default, so it moves with E2E_PORT.
 */
const reportingSandboxPort = Number(process.env.E2E_REPORTING_SANDBOX_PORT ?? port + 1000);

export const E2E = { port, dataDir, baseURL: `http://localhost:${port}`, reportingSandboxURL: `http://127.0.0.1:${reportingSandboxPort}` };
/**
 * THREEDS_SANDBOX=strict: the service mounts the strict 3DS Server sandbox (3dsecure.io reference)
 * and only the specs written for it run (tests/e2e/cardholder/three-ds-strict.spec.ts); the other
 * specs use the lenient sandbox's cards. .ci/run runs both.
 */
const strictThreeDs = process.env.THREEDS_SANDBOX === "strict";
const STRICT_SPECS = /three-ds-strict\.spec\.ts$/;
/**
 * DOCUMENTED_COMMANDS=1: the documented-commands runner (every command of README.md, docs/ and the
 * CLI's --help) alone, against a service of its own (`npm run test:documented-commands`; npm test runs
 * it so, after the other passes). Its operator lines change that service's data (the card-key
 * rotation re-seals stored cards, operations are settled), which the other specs must not find.
 */
const DOCUMENTED_COMMANDS = /documented-commands\.spec\.ts$/;
const runDocumentedCommands = process.env.DOCUMENTED_COMMANDS === "1";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e-artifacts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  use: {
    baseURL: E2E.baseURL,
    screenshot: "only-on-failure",
    // A trace records every action (DOM snapshots, screencast frames) for every test, kept only when
    // it fails: about a quarter of the browser passes' CPU (tests/e2e/cardholder/payment-flow and
    // backoffice/backoffice: 120 s of CPU with it, 82-86 s without). In CI nobody opens a trace
    // (the run reports its failures by name, test-results/failures.txt), so there it is off; run
    // a failing spec locally to get one, or pass --trace on.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
  },
  projects: [
    strictThreeDs
      ? { name: "chromium-strict-3ds", use: { browserName: "chromium" }, testMatch: STRICT_SPECS }
      : runDocumentedCommands
        ? { name: "chromium", use: { browserName: "chromium" }, testMatch: DOCUMENTED_COMMANDS }
        : { name: "chromium", use: { browserName: "chromium" }, testIgnore: [STRICT_SPECS, DOCUMENTED_COMMANDS] },
  ],
  webServer: {
    // Under npm test the build was made first (scripts/test.sh): a stale one is an error here too,
    // never rebuilt by npm start behind the suite's back.
    command: `${process.env.CPS_TEST_PREBUILT === "1" ? "npx tsx scripts/build/require-current.ts && " : ""}rm -rf ${dataDir} && npm start`,
    url: `${E2E.baseURL}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      NEXT_TELEMETRY_DISABLED: "1",
      THREEDS_SANDBOX: strictThreeDs ? "strict" : "lenient",
      CLEARHAUS_REPORTING_SANDBOX_PORT: String(reportingSandboxPort),
    },
  },
});
