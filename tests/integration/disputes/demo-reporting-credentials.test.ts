// The local demo imports disputes and settlements from the sandbox (issue 40): the demo merchant's
// Clearhaus test account carries the Merchant API sandbox's client for that sandbox account, from a
// fresh start and, for a data folder from before, from its next start; no other account gets any.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { accountReporting, REPORTING_ACCOUNT_SELECT, reportingRulesOnly } from "@/lib/routing/accounts/reporting-access";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { seedDemo } from "@/lib/sandboxes/seed-demo";
import { setEnv } from "@/tests/helpers/set-env";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const saved = { ...process.env };
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cps-demo-reporting-"));
  setEnv({ DATA_DIR: dataDir, NODE_ENV: "test", CPS_LOCAL: undefined });
});
afterAll(() => {
  setEnv({ DATA_DIR: saved.DATA_DIR, NODE_ENV: saved.NODE_ENV, CPS_LOCAL: saved.CPS_LOCAL });
  rmSync(dataDir, { recursive: true, force: true });
});

const demoMerchantId = () => (JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { merchantId: string }).merchantId;

async function reportingAccounts(merchantId: string) {
  return db().acquirerAccount.findMany({ where: { merchantId, reportingCredentialsSealed: { not: null } }, select: REPORTING_ACCOUNT_SELECT });
}

describe("the demo merchant's reporting API credentials", () => {
  it("a fresh start gives its Clearhaus test account the Merchant API sandbox client of the same sandbox account, and no other account any", async () => {
    await seedDemo();
    const accounts = await reportingAccounts(demoMerchantId());
    expect(accounts.map((account) => [account.processor, account.mode])).toEqual([["clearhaus", "test"]]);
    const { call } = accountReporting(accounts[0]!, reportingRulesOnly);
    expect(call.credentials).toEqual({ clientId: MERCHANT_API_SANDBOX_CLIENTS[0]!.clientId, clientSecret: MERCHANT_API_SANDBOX_CLIENTS[0]!.clientSecret });
  });

  it("a data folder from before gets them at its next start; credentials already there are left alone", async () => {
    const merchantId = demoMerchantId();
    await db().acquirerAccount.updateMany({ where: { merchantId }, data: { reportingCredentialsSealed: null, reportingCredentialsKeyId: null, reportingCredentialsFingerprint: null } });
    await seedDemo();
    const [account] = await reportingAccounts(merchantId);
    expect(account).toBeDefined();
    const before = await db().acquirerAccount.findUniqueOrThrow({ where: { id: account!.id }, select: { reportingCredentialsSealed: true, reportingCredentialsSetAt: true } });
    await seedDemo();
    expect(await db().acquirerAccount.findUniqueOrThrow({ where: { id: account!.id }, select: { reportingCredentialsSealed: true, reportingCredentialsSetAt: true } })).toEqual(before);
  });
});
