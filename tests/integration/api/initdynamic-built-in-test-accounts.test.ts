// Test mode needs no set-up: a processor in the routing order where the merchant has no test account
// gets the built-in sandbox's when a test payment is first routed (docs/decisions/0108), under the
// merchant's row lock. A processor where the merchant has a test account of its own (of other
// currencies, or disabled) never gets one, and finding that out takes no lock (issue 37): before, every
// initdynamic of such a merchant ran a transaction that waited for the merchant's row lock.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createAcquirerAccount } from "@/lib/routing/accounts/create-acquirer-account";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { sandboxAccountInput } from "@/lib/sandboxes/sandbox-merchant-accounts";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();

let api: MerchantApiHarness;
let sandboxes: RunningSandboxes;
beforeAll(async () => {
  // Built-in test accounts come with the sandboxes running in this process (decision 0162).
  sandboxes = await startSandboxes({ processors: ["bambora"], threeDs: false });
  api = await startMerchantApi();
});
afterAll(async () => {
  await api?.close();
  await sandboxes?.close();
});

/** A merchant with finaro and clearhaus test accounts (any currency), and `bambora`'s if given. */
async function merchantWith(bambora?: Record<string, unknown>): Promise<TestMerchant> {
  const merchant = await createTestMerchant({ acquirerAccounts: false, defaultNotificationUrl: "http://127.0.0.1:9/default" });
  for (const processor of ["finaro", "clearhaus"] as const) {
    await createAcquirerAccount({ merchantId: merchant.merchantId, input: sandboxAccountInput(processor) });
  }
  if (bambora) await createAcquirerAccount({ merchantId: merchant.merchantId, input: sandboxAccountInput("bambora", 0, bambora) });
  return merchant;
}

// The default routing order (no processor named, no rule of the merchant's): every acquirer.
const initDkk = (merchant: TestMerchant) =>
  api.call("POST", "/api/initdynamic", {
    apiKey: merchant.apiKey,
    body: { merchantid: merchant.merchantId, amount: 250, currency: "DKK" },
  });

const bamboraAccounts = (merchantId: string) => db().acquirerAccount.findMany({ where: { merchantId, processor: "bambora" }, select: { name: true } });

describe("built-in test accounts at initdynamic", () => {
  // Two connections at once: PostgreSQL only (CI runs this suite on PostgreSQL).
  it.skipIf(defaultEngine() !== "postgres")(
    "a processor where the merchant has a test account in other currencies gets none, and the window opens while another transaction holds the merchant's row",
    async () => {
      const merchant = await merchantWith({ currencies: "CAD" });
      const other = new pg.Client({ connectionString: database.current().url });
      await other.connect();
      try {
        // Another transaction holds the merchant's row (its settings being changed, say): NO KEY
        // UPDATE, so the session's insert (a KEY SHARE lock for its foreign key) is not held up,
        // while the built-in accounts' FOR UPDATE would be.
        await other.query("BEGIN");
        await other.query(`SELECT 1 FROM "Merchant" WHERE "id" = $1 FOR NO KEY UPDATE`, [merchant.merchantId]);
        const answer = await Promise.race([
          initDkk(merchant),
          new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 3_000)),
        ]);
        expect(answer).not.toBe("waited");
        expect(answer).toMatchObject({ status: 200 });
      } finally {
        await other.query("ROLLBACK").catch(() => undefined);
        await other.end();
      }
      expect(await bamboraAccounts(merchant.merchantId)).toEqual([{ name: "bambora sandbox" }]);
    },
  );

  it("a processor where the merchant has no test account at all gets the built-in one, once", async () => {
    const merchant = await merchantWith();
    expect((await initDkk(merchant)).status).toBe(200);
    const added = (await bamboraAccounts(merchant.merchantId)).map((account) => account.name);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((name) => name.endsWith("sandbox (built-in)"))).toBe(true);
    expect((await initDkk(merchant)).status).toBe(200);
    expect(await bamboraAccounts(merchant.merchantId)).toHaveLength(added.length);
  });
});
