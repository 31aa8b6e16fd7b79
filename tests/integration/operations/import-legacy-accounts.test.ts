// The upgrade to per-merchant acquirer accounts (`accounts import-env`): merchants of a deployment
// that used the process-wide FINARO_*, CLEARHAUS_*, BAMBORA_* credentials get accounts built from
// them, recorded on the payments they already have, so those payments' follow-ups still reach the
// acquirer under the same credentials; a second run changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { processFollowUpOperation } from "@/lib/payments/process-follow-up-operation";
import { importLegacyAccounts } from "@/lib/processors/accounts/import-legacy-accounts";
import { sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { testCard } from "../processors/helpers";

useTestDatabase();

let sandboxes: RunningSandboxes;
beforeAll(async () => {
  sandboxes = await startSandboxes({ threeDs: false });
});
afterAll(async () => sandboxes.close());

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
