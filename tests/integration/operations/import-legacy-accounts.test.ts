// The upgrade to per-merchant acquirer accounts (`accounts import-env`): merchants of a deployment
// that used the process-wide FINARO_*, CLEARHAUS_*, BAMBORA_* credentials get accounts built from
// them, recorded on the payments they already have, so those payments' follow-ups still reach the
// acquirer under the same credentials; a second run changes nothing.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { resetConfig } from "@/lib/env";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { FINARO_SANDBOX_PATH } from "@/lib/sandboxes/acquirers/finaro";
import { processFollowUpOperation } from "@/lib/payments/process-follow-up-operation";
import { importLegacyAccounts } from "@/lib/routing/accounts/import-legacy-accounts";
import { sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { testCard } from "../../helpers/payment-factories";
import { npmScript } from "@/tests/helpers/service-process";

useTestDatabase();

let sandboxes: RunningSandboxes;
beforeAll(async () => {
  sandboxes = await startSandboxes({ threeDs: false, extensions: true });
  // A deployment that upgrades is a production one: its live endpoints are configured (here: the sandboxes).
  process.env.FINARO_BASE_URL = `${sandboxes.urls.finaro}${FINARO_SANDBOX_PATH}`;
  process.env.CLEARHAUS_BASE_URL = sandboxes.urls.clearhaus;
  resetConfig();
});
afterAll(async () => {
  delete process.env.FINARO_BASE_URL;
  delete process.env.CLEARHAUS_BASE_URL;
  resetConfig();
  await sandboxes.close();
});

const legacy = {
  finaro: { merchantId: "SANDBOXFINARO1", signatureKey: "finaro-sandbox-signature-key" },
  clearhaus: { apiKey: "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01" },
};
const fields = { mcc: "5999", merchantName: "Old Shop", country: "DK", descriptor: "Old Shop", mode: "live" as const };

describe("accounts import-env", () => {
  it("gives every merchant accounts from the variables and records them on the payments they have; follow-ups then work", async () => {
    const { merchant } = await createMerchant({ name: "Before the upgrade" });
    // A payment authorized at Clearhaus before accounts existed: no account on it.
    const authorization = await sandboxesAuthorizeClearhaus();
    const paymentId = newId();
    await db().payment.create({
      data: {
        id: paymentId,
        merchantId: merchant.id,
        mode: "live",
        amount: 10_000n,
        currency: "DKK",
        status: "AUTHORIZED",
        authorizedAmount: 10_000n,
        processor: "clearhaus",
      },
    });
    await db().operation.create({
      data: {
        id: newId(),
        paymentId,
        type: "authorize",
        amount: 10_000n,
        currency: "DKK",
        status: "approved",
        processor: "clearhaus",
        processorReference: authorization,
      },
    });

    const results = await importLegacyAccounts({ fields, legacy });
    // Clearhaus' merchant_id was asked from Clearhaus (GET /account), the rest from the options.
    const accounts = await db().acquirerAccount.findMany({ where: { merchantId: merchant.id }, orderBy: { processor: "asc" } });
    expect(accounts.map((account) => [account.processor, account.acquirerMerchantId, account.anyCurrency, account.mode])).toEqual([
      ["finaro", "SANDBOXFINARO1", true, "live"],
      ["clearhaus", "000000000000001", true, "live"],
    ]);
    const clearhaus = accounts.find((account) => account.processor === "clearhaus")!;
    expect(results.find((result) => result.processor === "clearhaus")!.created).toContainEqual({
      merchantId: merchant.id,
      accountId: clearhaus.id,
      payments: 1,
      operations: 1,
    });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).acquirerAccountId).toBe(clearhaus.id);

    const captureId = newId();
    await db().operation.create({ data: { id: captureId, paymentId, type: "capture", amount: 10_000n, currency: "DKK" } });
    expect(await processFollowUpOperation({ operationId: captureId })).toBe("approved");
    expect(sandboxes.ledgers.clearhaus!.byId(authorization)!.capturedAmount).toBe(10_000);

    // Again: nothing more.
    const again = await importLegacyAccounts({ fields, legacy });
    expect(again.every((result) => result.created.length === 0)).toBe(true);
    expect(await db().acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(2);
  });

  it("refuses credentials of the wrong shape before any merchant gets an account", async () => {
    const { merchant } = await createMerchant({ name: "Bad variables" });
    await expect(importLegacyAccounts({ fields, legacy: { clearhaus: { apiKey: "not-a-uuid" } } })).rejects.toThrow(
      /API key must be a UUID/,
    );
    expect(await db().acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(0);
  });
});

describe("a production start", () => {
  it("refuses the old credential variables before anything else, naming the upgrade command", async () => {
    const failure = await promisify(execFile)(...npmScript("start"), {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "cps-legacy-")),
        DATABASE_URL: "postgresql://nobody@127.0.0.1:9/none",
        SESSION_SECRET: randomBytes(32).toString("base64url"),
        API_KEY_SECRET: randomBytes(32).toString("base64url"),
        CARD_DATA_KEY: randomBytes(32).toString("base64"),
        CLEARHAUS_API_KEY: legacy.clearhaus.apiKey,
      },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/CLEARHAUS_API_KEY: no longer read in production.*node dist\/cli\.js accounts import-env/);
  });
});

async function sandboxesAuthorizeClearhaus(): Promise<string> {
  const { connectorAt } = await import("@/tests/helpers/acquirer-accounts");
  const result = await connectorAt(sandboxes.urls.clearhaus!, sandboxCredentials("clearhaus")).authorize({
    operationId: newId(),
    paymentId: newId(),
    amount: 10_000n,
    currency: "DKK",
    card: testCard("4111111111111111"),
  });
  return result.processorReference!;
}
