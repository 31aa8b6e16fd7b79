// A payment no acquirer account of the merchant can take is refused where it starts (initdynamic,
// mit, payout) with the spec's error body naming the currency or the processor, and nothing is made.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { settingsGeneration } from "@/lib/db/settings-cache";
import { eventually } from "@/tests/helpers/eventually";
import { updateAcquirerAccount } from "@/lib/routing/accounts/update-acquirer-account";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
/** Accounts at every processor, then narrowed per test. */
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });
/** No acquirer account at all. */
const bare = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default", acquirerAccounts: false });

beforeAll(async () => {
  // Finaro takes EUR only, Clearhaus DKK only, Bambora is disabled.
  const accounts = await db().acquirerAccount.findMany({ where: { merchantId: merchant.merchantId } });
  for (const account of accounts) {
    const input = { finaro: { currencies: "EUR" }, clearhaus: { currencies: "DKK" }, bambora: { enabled: false } }[account.processor];
    await updateAcquirerAccount({ merchantId: merchant.merchantId, accountId: account.id, input });
  }
});

const init = (who: TestMerchant, body: Record<string, unknown>) =>
  api.call("POST", "/api/initdynamic", { apiKey: who.apiKey, body: { merchantid: who.merchantId, amount: 250, currency: "DKK", ...body } });

describe("initdynamic", () => {
  it("is refused for a merchant without acquirer accounts, naming the currency, and no session is made", async () => {
    const response = await init(bare, {});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription:
        "currency: no enabled test acquirer account of this merchant accepts DKK at the processors of routing rule 1 (finaro, clearhaus, bambora)",
    });
    expect(await db().paymentSession.count({ where: { merchantId: bare.merchantId } })).toBe(0);
  });

  it("is refused for a currency no enabled account takes, and accepted for one that one takes", async () => {
    expect((await init(merchant, { currency: "SEK" })).body).toMatchObject({
      error: "INVALID_PARAMETER",
      errordescription: expect.stringMatching(/^currency: .* accepts SEK/),
    });
    expect((await init(merchant, { currency: "EUR" })).status).toBe(200);
    expect((await init(merchant, { currency: "DKK" })).status).toBe(200);
  });

  it("is refused when the request names a processor without a fitting account (disabled, or another currency)", async () => {
    expect((await init(merchant, { processor: ["bambora"] })).body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "processor: bambora has no enabled test acquirer account of this merchant that accepts DKK",
    });
    expect((await init(merchant, { processor: ["clearhaus", "finaro"] })).body).toMatchObject({
      errordescription: "processor: finaro has no enabled test acquirer account of this merchant that accepts DKK",
    });
    expect((await init(merchant, { processor: ["clearhaus"] })).status).toBe(200);
  });
});

describe("initdynamic's kept routing plan", () => {
  it("is dropped when an account changes anywhere: the next request after the change is refused", async () => {
    const shop = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });
    // Asked twice: the second answer comes from the plan kept in this process (on PostgreSQL).
    expect((await init(shop, { processor: ["clearhaus"] })).status).toBe(200);
    expect((await init(shop, { processor: ["clearhaus"] })).status).toBe(200);
    const keptUnder = settingsGeneration();
    const clearhaus = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId: shop.merchantId, processor: "clearhaus", mode: "test" } });
    // Plain SQL, as another process or an operator would: only the settings notification tells this process.
    await db().$executeRaw`UPDATE "AcquirerAccount" SET "enabled" = false WHERE "id" = ${clearhaus.id}`;
    if (keptUnder !== undefined) await eventually(() => settingsGeneration() !== keptUnder, { what: "the account's settings notification", timeoutMs: 5_000, intervalMs: 5 });
    expect((await init(shop, { processor: ["clearhaus"] })).body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "processor: clearhaus has no enabled test acquirer account of this merchant that accepts DKK",
    });
  });
});

describe("mit and payout", () => {
  const postMit = (body: Record<string, unknown>) =>
    api.call("POST", "/api/mit", { apiKey: merchant.apiKey, body: { merchantid: merchant.merchantId, ...body } });

  it("refuse a payment no account takes before making it", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, processor: "clearhaus" });
    const before = await db().payment.count({ where: { merchantId: merchant.merchantId } });
    const mit = await postMit({ paymentid: paymentId, amount: 100, currency: "SEK", paymenttype: "unscheduled" });
    expect(mit.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^currency: .* accepts SEK/) });
    const payout = await api.call("POST", `/api/${paymentId}/payout`, {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK", processor: "bambora" },
    });
    // Bambora North America has no payouts: said before anything about its accounts.
    expect(payout.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "processor: bambora offers no payouts" });
    expect(await db().payment.count({ where: { merchantId: merchant.merchantId } })).toBe(before);
  });

  it("refuse an MIT that names bambora, whose merchant-initiated payments are purchases only", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, processor: "clearhaus" });
    const before = await db().payment.count({ where: { merchantId: merchant.merchantId } });
    const mit = await postMit({ paymentid: paymentId, amount: 100, currency: "DKK", paymenttype: "unscheduled", processor: "bambora" });
    expect(mit.status).toBe(400);
    expect(mit.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "processor: bambora takes merchant-initiated payments only as immediate purchases, not as authorizations to capture later",
    });
    expect(await db().payment.count({ where: { merchantId: merchant.merchantId } })).toBe(before);
  });
});
