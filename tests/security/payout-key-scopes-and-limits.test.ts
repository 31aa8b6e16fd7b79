// Security review 3, M7: one merchant API key could pay any amount to any card stored at the merchant
// (including the attacker's own, tokenized through the merchant's checkout): a cash-out credential
// without scope or limit. Over HTTP to the merchant API's route handlers with the acquirer sandboxes:
// keys carry scopes chosen when they are made and a key without the payouts scope cannot pay out (nor
// a read-only key start a payment); a payout goes only to the card of an approved cardholder
// payment; per-currency limits per payout and per 24 hours refuse more, with a clear error and
// nothing recorded; no limit for a currency means no payouts; key creation is audited with its scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { db } from "@/lib/db";
import { setPayoutLimit } from "@/lib/payments/set-payout-limit";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { createUser } from "@/lib/users/create-user";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

let api: MerchantApiHarness;
let sandboxes: RunningSandboxes;
let merchant: TestMerchant;

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  api = await startMerchantApi();
  // Payouts need a notification address for their final result (issue 21).
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
});
afterAll(async () => {
  await api?.close();
  await sandboxes?.close();
});

async function source(options: { status?: "CAPTURED" | "TOKENIZED" | "DECLINED"; merchantId?: string } = {}) {
  return createTestPayment({
    merchantId: options.merchantId ?? merchant.merchantId,
    merchantPaymentId: `src${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    status: options.status ?? "CAPTURED",
    ...(options.status === "TOKENIZED" || options.status === "DECLINED" ? { amount: 0n } : { captures: [10_000n] }),
    withStoredCard: { pan: "4111111111111111", scheme: "visa" },
  });
}

function payout(paymentId: string, apiKey: string, amount: number, currency = "DKK") {
  return api.call("POST", `/api/${paymentId}/payout`, { apiKey, body: { amount, currency, processor: "clearhaus" } });
}

const payoutsOf = (merchantId: string) => db().payment.count({ where: { merchantId, paymentType: "payout" } });

describe("M7: API-key scopes", () => {
  it("M7: a key without the payouts scope cannot pay out, and nothing is recorded", async () => {
    const { apiKey } = await createApiKey({ merchantId: merchant.merchantId, mode: "test" as const, name: "web shop", scopes: ["payments", "follow-ups", "read"] });
    const { paymentId } = await source();
    const before = await payoutsOf(merchant.merchantId);
    const answer = await payout(paymentId, apiKey, 100);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "INVALID_API_KEY", errordescription: expect.stringMatching(/payouts scope/) });
    expect(await payoutsOf(merchant.merchantId)).toBe(before);
  });

  it("M7: a read-only key reads a payment but cannot start one or capture", async () => {
    const { apiKey } = await createApiKey({ merchantId: merchant.merchantId, mode: "test" as const, name: "reporting", scopes: ["read"] });
    const { paymentId } = await source();
    expect((await api.call("GET", `/api/${paymentId}/payment?sync=1`, { apiKey })).status).toBe(200);
    const init = await api.call("POST", "/api/initdynamic", { apiKey, body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK" } });
    expect(init.body).toMatchObject({ error: "INVALID_API_KEY" });
    expect((await api.call("POST", `/api/${paymentId}/capture`, { apiKey, body: { amount: 100 } })).body).toMatchObject({ error: "INVALID_API_KEY" });
  });

  it("M7: key creation in the back office takes the chosen scopes and the audit log records them", async () => {
    const owner = await createUser({ merchantId: merchant.merchantId, email: `owner-${merchant.merchantId}@example.com`, name: "Owner", password: "a long enough password", role: "OWNER" });
    const actor = { userId: owner.id, merchantId: merchant.merchantId, role: "OWNER" as const, mode: "test" as const };
    const { record } = await createKey({ actor, input: { name: "payouts only", scopes: ["payouts"], currentPassword: "a long enough password" } });
    expect(record.scopes).toEqual(["payouts"]);
    await expect(createKey({ actor, input: { name: "nothing", scopes: [], currentPassword: "a long enough password" } })).rejects.toThrow(/at least one scope/);
    await expect(createKey({ actor, input: { name: "bad", scopes: ["everything"], currentPassword: "a long enough password" } })).rejects.toThrow();
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId: merchant.merchantId, action: "api_key.created", target: record.id } });
    expect(audit.details).toMatchObject({ name: "payouts only", scopes: ["payouts"] });
  });
});

describe("M7: payouts only to approved cardholder payments, within limits", () => {
  it("M7: a payout to the card of a tokenization or a declined payment is refused", async () => {
    for (const status of ["TOKENIZED", "DECLINED"] as const) {
      const { paymentId } = await source({ status });
      const answer = await payout(paymentId, merchant.apiKey, 100);
      expect(answer.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^paymentid: .*approved cardholder payment/) });
    }
  });

  it("M7: over the limit per payout is refused with the limit named; within it is paid", async () => {
    const shop = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
    await setPayoutLimit({ merchantId: shop.merchantId, actorUserId: null, input: { currency: "DKK", perPayout: 50_000, perDay: 80_000 } });
    const { paymentId } = await source({ merchantId: shop.merchantId });
    const over = await payout(paymentId, shop.apiKey, 50_001);
    expect(over.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "amount: over the payout limit of 500.00 DKK per payout" });
    expect(await payoutsOf(shop.merchantId)).toBe(0);
    expect((await payout(paymentId, shop.apiKey, 50_000)).body).toMatchObject({ status: "approved" });
  });

  it("M7: over the limit per 24 hours is refused, counting what was paid out already, also when sent at once", async () => {
    const shop = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
    await setPayoutLimit({ merchantId: shop.merchantId, actorUserId: null, input: { currency: "DKK", perPayout: 30_000, perDay: 50_000 } });
    const { paymentId } = await source({ merchantId: shop.merchantId });
    const answers = await Promise.all([1, 2, 3].map(() => payout(paymentId, shop.apiKey, 20_000)));
    const approved = answers.filter((answer) => answer.body.status === "approved");
    const refused = answers.filter((answer) => answer.body.error === "INVALID_PARAMETER");
    expect(approved).toHaveLength(2);
    expect(refused[0]?.body.errordescription).toBe("amount: over the payout limit of 500.00 DKK per 24 hours (400.00 DKK paid out already)");
    expect(await payoutsOf(shop.merchantId)).toBe(2);
  });

  it("M7: a currency without a limit takes no payouts", async () => {
    const shop = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
    await db().payoutLimit.deleteMany({ where: { merchantId: shop.merchantId } });
    const { paymentId } = await source({ merchantId: shop.merchantId });
    const answer = await payout(paymentId, shop.apiKey, 100);
    expect(answer.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^currency: no payout limit is set for DKK/) });
    expect(await payoutsOf(shop.merchantId)).toBe(0);
  });
});
