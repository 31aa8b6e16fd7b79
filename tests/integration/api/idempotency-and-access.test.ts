// Idempotent repeats of the requests that create things (initdynamic, MIT), and the proof that no
// endpoint lets one merchant reach another's payments, over real HTTP.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/mine" });
const stranger = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/theirs" });

describe("idempotent creation", () => {
  it("initdynamic: a repeat with the same key answers the same session and opens no second one", async () => {
    const body = { merchantid: merchant.merchantId, amount: 100, currency: "DKK", merchantpaymentid: "idem1" };
    const headers = { "Idempotency-Key": "init-idem1" };
    const [first, second] = await Promise.all([
      api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, body, headers }),
      api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, body, headers }),
    ]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await db().paymentSession.count({ where: { merchantPaymentId: "idem1" } })).toBe(1);
  });

  it("MIT: a repeat with the same key creates one payment and starts one authorization", async () => {
    const parent = await createTestPayment({ merchantId: merchant.merchantId });
    const body = { merchantid: merchant.merchantId, paymentid: parent.paymentId, amount: 100, currency: "DKK", paymenttype: "unscheduled" };
    const headers = { "Idempotency-Key": "mit-1" };
    const responses = await Promise.all([1, 2, 3].map(() => api.call("POST", "/api/mit", { apiKey: merchant.apiKey, body, headers })));
    expect(new Set(responses.map((response) => response.body.responseid)).size).toBe(1);
    expect(await db().payment.count({ where: { parentPaymentId: parent.paymentId } })).toBe(1);
    const events = await db().inngestEvent.findMany({ where: { name: "payment/mit.requested" } });
    expect(events.filter((event) => JSON.stringify(event.payload).includes(String(responses[0]!.body.responseid)))).toHaveLength(1);
    // Without a key, each request is a new payment: the merchant asked twice.
    await api.call("POST", "/api/mit", { apiKey: merchant.apiKey, body });
    expect(await db().payment.count({ where: { parentPaymentId: parent.paymentId } })).toBe(2);
  });

  it("MIT: newmerchantpaymentid must be unused", async () => {
    const parent = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId: "used1" });
    const response = await api.call("POST", "/api/mit", {
      apiKey: merchant.apiKey,
      body: {
        merchantid: merchant.merchantId,
        paymentid: parent.paymentId,
        newmerchantpaymentid: "used1",
        amount: 1,
        currency: "DKK",
        paymenttype: "incremental",
      },
    });
    expect(response.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "newmerchantpaymentid: is already used by another payment of this merchant",
    });
  });
});

describe("one merchant can never reach another's payments", () => {
  it("every endpoint with a payment answers 'no such payment' for another merchant's paymentid and merchantpaymentid", async () => {
    const theirs = await createTestPayment({
      merchantId: stranger.merchantId,
      merchantPaymentId: "theirs42",
      captures: [10_000n],
      status: "CAPTURED",
    });
    const before = await db().operation.count();
    const payments = await db().payment.count();
    const notifications = await db().notification.count();
    for (const ref of [theirs.paymentId, "theirs42"]) {
      const calls = [
        api.call("POST", `/api/${ref}/capture`, { apiKey: merchant.apiKey, body: {} }),
        api.call("POST", `/api/${ref}/refund`, { apiKey: merchant.apiKey, body: {} }),
        api.call("POST", `/api/${ref}/void`, { apiKey: merchant.apiKey, body: {} }),
        api.call("POST", `/api/${ref}/payout`, { apiKey: merchant.apiKey, body: { amount: 100, currency: "DKK" } }),
        api.call("GET", `/api/${ref}/payment?gfx=1`, { apiKey: merchant.apiKey }),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "paymentid: no such payment" });
      }
      const mit = await api.call("POST", "/api/mit", {
        apiKey: merchant.apiKey,
        body: { merchantid: merchant.merchantId, paymentid: ref, amount: 1, currency: "DKK", paymenttype: "scheduled" },
      });
      expect(mit.body.errordescription).toMatch(/no such payment$/);
      const init = await api.call("POST", "/api/initdynamic", {
        apiKey: merchant.apiKey,
        body: { merchantid: merchant.merchantId, paymentid: ref, amount: 1, currency: "DKK" },
      });
      expect(init.body.errordescription).toBe("paymentid: no such payment");
    }
    expect(await db().operation.count()).toBe(before);
    expect(await db().payment.count()).toBe(payments);
    expect(await db().notification.count()).toBe(notifications);
  });

  it("the owner reaches the same payment by both references", async () => {
    const mine = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId: "mine42" });
    for (const ref of [mine.paymentId, "mine42"]) {
      const response = await api.call("GET", `/api/${ref}/payment`, { apiKey: merchant.apiKey });
      expect(response.status).toBe(200);
    }
    const stored = await db().notification.findMany({ where: { paymentId: mine.paymentId, kind: "payment_details" } });
    expect(stored).toHaveLength(2);
    expect(stored.every((notification) => notification.url === "http://127.0.0.1:9/mine")).toBe(true);
  });
});

describe("payment details and payout parameters", () => {
  it("validates the query parameters of the payment lookup", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const cases: Array<[string, string]> = [
      ["gfx=yes", "gfx: must be 0 or 1"],
      ["notificationurl=not-a-url", "notificationurl: must be an absolute http or https URL"],
      ["operationid=bad-id", "operationid: must be 1 to 32 characters of a-z, A-Z and 0-9"],
      ["colour=red", "colour: unknown parameter"],
    ];
    for (const [query, description] of cases) {
      const response = await api.call("GET", `/api/${paymentId}/payment?${query}`, { apiKey: merchant.apiKey });
      expect(response.body, query).toEqual({ error: "INVALID_PARAMETER", errordescription: description });
    }
  });

  it("refuses a lookup whose record could reach no address, and sends to the query's notificationurl", async () => {
    const silent = await createTestMerchant();
    const { paymentId } = await createTestPayment({ merchantId: silent.merchantId });
    const refused = await api.call("GET", `/api/${paymentId}/payment`, { apiKey: silent.apiKey });
    expect(refused.body.errordescription).toBe("notificationurl: is required: no notification address is configured for this merchant");
    const sent = await api.call("GET", `/api/${paymentId}/payment?notificationurl=${encodeURIComponent("https://shop.example/details")}`, {
      apiKey: silent.apiKey,
    });
    expect(sent.status).toBe(200);
    const [notification] = await db().notification.findMany({ where: { paymentId } });
    expect(notification).toMatchObject({ url: "https://shop.example/details", kind: "payment_details", status: "pending" });
    expect(JSON.parse(notification!.body)).toMatchObject({ paymentid: paymentId, responseid: sent.body.responseid });
  });

  it("validates every payout field", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const base = { amount: 100, currency: "DKK" };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ amount: "1.5" }, /^amount: /],
      [{ amount: 0 }, /^amount: must be at least 1/],
      [{ currency: "KRONER" }, /^currency: /],
      [{ email: "ann.example.com" }, /^email: must be an email address$/],
      [{ firstname: "x".repeat(101) }, /^firstname: must be at most 100/],
      [{ surename: 7 }, /^surename: must be a string$/],
      [{ textonstatement: "a".repeat(33) }, /^textonstatement: /],
      [{ processor: "paypal" }, /^processor: must be one of finaro, clearhaus, bambora$/],
      [{ notificationurl: "mailto:a@b.dk" }, /^notificationurl: /],
      [{ surname: "Berg" }, /^surname: unknown parameter \(did you mean surename\?\)$/],
    ];
    for (const [override, description] of cases) {
      const response = await api.call("POST", `/api/${paymentId}/payout`, { apiKey: merchant.apiKey, body: { ...base, ...override } });
      expect(response.body.error, JSON.stringify(override)).toBe("INVALID_PARAMETER");
      expect(response.body.errordescription).toMatch(description);
    }
    const noCard = await createTestPayment({ merchantId: merchant.merchantId, withStoredCard: false });
    const refused = await api.call("POST", `/api/${noCard.paymentId}/payout`, { apiKey: merchant.apiKey, body: base });
    expect(refused.body.errordescription).toBe("paymentid: the payment has no stored card data to pay out to");
    expect(await db().payment.count({ where: { paymentType: "payout" } })).toBe(0);
  });
});
