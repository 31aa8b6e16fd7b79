// `npm run cli -- accounts set-reporting-credentials` and the reporting line of `accounts test` (issue
// 40), run as an operator runs them against a test database and the Clearhaus sandboxes on the
// endpoints an operator configures: the secret only from a file or standard input, never printed,
// sealed and audited; the check passes with the sandbox's client and says FAILED (exit 1, shown on
// the account) with a secret the sandbox refuses; an acquirer without a reporting API is refused.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { addSandboxAccounts } from "@/tests/helpers/acquirer-accounts";
import { operatorCli } from "../helpers/operator-cli";
import { useTestDatabase } from "../helpers/test-database";

const database = useTestDatabase();
const cli = operatorCli(() => database.current().url, "cps-cli-reporting-");
const client = MERCHANT_API_SANDBOX_CLIENTS[0]!;

let sandboxes: RunningSandboxes;
const saved: Record<string, string | undefined> = {};
const ENDPOINTS = ["CLEARHAUS_TEST_BASE_URL", "CLEARHAUS_MERCHANT_API_TEST_BASE_URL"] as const;

beforeAll(async () => {
  // Not registered in this process: the CLI is another process and reaches them only as configured.
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, register: false });
  for (const name of ENDPOINTS) saved[name] = process.env[name];
  process.env.CLEARHAUS_TEST_BASE_URL = sandboxes.urls.clearhaus!;
  process.env.CLEARHAUS_MERCHANT_API_TEST_BASE_URL = sandboxes.reportingUrls.clearhaus!;
});
afterAll(async () => {
  for (const name of ENDPOINTS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await sandboxes?.close();
});

async function merchantWithAccounts() {
  const { merchant } = await createMerchant({ name: "CLI Reporting Shop" });
  await addSandboxAccounts(merchant.id);
  const account = (processor: "clearhaus" | "finaro") =>
    db().acquirerAccount.findFirstOrThrow({ where: { merchantId: merchant.id, processor, mode: "test" }, select: { id: true } });
  return { merchantId: merchant.id, clearhaus: (await account("clearhaus")).id, finaro: (await account("finaro")).id };
}

describe("npm run cli -- accounts set-reporting-credentials", () => {
  it("stores the Merchant API client from a file, sealed and audited, never printed; accounts test then checks it: OK", async () => {
    const { merchantId, clearhaus } = await merchantWithAccounts();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cps-reporting-")), "merchant-api.json");
    writeFileSync(file, JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }), { mode: 0o600 });

    const set = await cli("accounts", "set-reporting-credentials", "--merchant", merchantId, "--account", clearhaus, "--credentials-file", file);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^Reporting API credentials stored for account [0-9a-f]{32} \(fingerprint \S+\); run accounts test to check them/);
    expect(set.stdout).not.toContain(client.clientSecret);
    const row = await db().acquirerAccount.findUniqueOrThrow({ where: { id: clearhaus } });
    expect(row.reportingCredentialsSealed).toBeTruthy();
    expect(row.reportingCredentialsSealed).not.toContain(client.clientSecret);
    expect(await db().auditEntry.findFirst({ where: { merchantId, action: "acquirer_account.reporting_credentials_changed", target: clearhaus } })).toMatchObject({
      actorRole: "operator",
    });

    const tested = await cli("accounts", "test", "--merchant", merchantId, "--account", clearhaus);
    expect(tested.stdout).toMatch(/^OK: /);
    expect(tested.stdout).toMatch(/\nOK: Clearhaus Merchant API: /);
    expect(tested.code).toBe(0);
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: clearhaus } })).toMatchObject({ reportingProblem: null, reportingCheckedAt: expect.any(Date) });
  });

  it("takes the JSON on standard input; a secret the sandbox refuses makes accounts test say FAILED, exit 1, and show on the account", async () => {
    const { merchantId, clearhaus } = await merchantWithAccounts();
    const set = await cli.withInput(
      JSON.stringify({ clientId: client.clientId, clientSecret: "not-the-secret-123" }),
      "accounts",
      "set-reporting-credentials",
      "--merchant",
      merchantId,
      "--account",
      clearhaus,
      "--credentials-file",
      "-",
    );
    expect(set.code).toBe(0);
    const tested = await cli("accounts", "test", "--merchant", merchantId, "--account", clearhaus);
    // The gateway credentials still pass; the reporting line fails, and so does the command.
    expect(tested.stdout).toMatch(/^OK: /);
    expect(tested.stdout).toMatch(/\nFAILED: Clearhaus Merchant API: /);
    expect(tested.code).toBe(1);
    expect((await db().acquirerAccount.findUniqueOrThrow({ where: { id: clearhaus } })).reportingProblem).toBeTruthy();
  });

  it("outside the service, with no Merchant API test endpoint configured, accounts test says it cannot check from here and how, and records nothing on the account", async () => {
    const { merchantId, clearhaus } = await merchantWithAccounts();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cps-reporting-")), "merchant-api.json");
    writeFileSync(file, JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret }), { mode: 0o600 });
    expect((await cli("accounts", "set-reporting-credentials", "--merchant", merchantId, "--account", clearhaus, "--credentials-file", file)).code).toBe(0);
    // Checked once where it can be: the account shows it working since then.
    expect((await cli("accounts", "test", "--merchant", merchantId, "--account", clearhaus)).code).toBe(0);
    const before = await db().acquirerAccount.findUniqueOrThrow({ where: { id: clearhaus } });
    expect(before).toMatchObject({ reportingProblem: null, reportingFailures: 0, reportingCheckedAt: expect.any(Date) });

    // The operator's shell as on the service's machine: the gateway's test endpoint set, the Merchant
    // API's not (the service's test accounts use the sandbox running inside the service).
    delete process.env.CLEARHAUS_MERCHANT_API_TEST_BASE_URL;
    let tested: Awaited<ReturnType<typeof cli>>;
    let json: Awaited<ReturnType<typeof cli>>;
    try {
      tested = await cli("accounts", "test", "--merchant", merchantId, "--account", clearhaus);
      json = await cli("accounts", "test", "--merchant", merchantId, "--account", clearhaus, "--json");
    } finally {
      process.env.CLEARHAUS_MERCHANT_API_TEST_BASE_URL = sandboxes.reportingUrls.clearhaus!;
    }
    expect(tested.stdout).toMatch(/^OK: /);
    expect(tested.stdout).not.toMatch(/FAILED/);
    const line = tested.stdout.split("\n").find((text) => text.includes("Clearhaus Merchant API"));
    expect(line).toMatch(/^NOT CHECKED: Clearhaus Merchant API: /);
    // Why, and the two ways to check it.
    expect(tested.stdout).toContain("cannot be checked from this CLI");
    expect(tested.stdout).toContain("Test reporting API");
    expect(tested.stdout).toContain("CLEARHAUS_MERCHANT_API_TEST_BASE_URL");
    expect(tested.stdout).toContain("nothing was recorded on the account");
    // Not a failure: the gateway passed and the reporting API was not asked.
    expect(tested.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, reporting: { checked: false, ok: false } });
    expect(json.code).toBe(0);
    // Nothing recorded: the account shows what the last real check found, when it found it.
    const after = await db().acquirerAccount.findUniqueOrThrow({ where: { id: clearhaus } });
    expect(after).toMatchObject({ reportingProblem: null, reportingFailures: 0, reportingCheckedAt: before.reportingCheckedAt });
  });

  it("refuses credentials that are not the reporting API's, an account whose acquirer has none, and a missing file option, storing nothing", async () => {
    const { merchantId, clearhaus, finaro } = await merchantWithAccounts();
    const wrongShape = await cli.withInput(JSON.stringify({ apiKey: "x" }), "accounts", "set-reporting-credentials", "--merchant", merchantId, "--account", clearhaus, "--credentials-file", "-");
    expect(wrongShape.code).not.toBe(0);
    expect(wrongShape.stderr).toContain("credentials: not Clearhaus Merchant API credentials");
    const noApi = await cli.withInput(JSON.stringify({ clientId: "a", clientSecret: "b".repeat(12) }), "accounts", "set-reporting-credentials", "--merchant", merchantId, "--account", finaro, "--credentials-file", "-");
    expect(noApi.code).not.toBe(0);
    expect(noApi.stderr).toContain("finaro publishes no reporting API");
    const noFile = await cli("accounts", "set-reporting-credentials", "--merchant", merchantId, "--account", clearhaus);
    expect(noFile.code).not.toBe(0);
    expect(await db().acquirerAccount.count({ where: { merchantId, reportingCredentialsSealed: { not: null } } })).toBe(0);
    // accounts test of an account without reporting credentials prints the gateway line only.
    const tested = await cli("accounts", "test", "--merchant", merchantId, "--account", clearhaus);
    expect(tested.stdout).not.toContain("Merchant API");
  });
});
