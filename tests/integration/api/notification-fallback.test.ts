// A merchant with no configured notification address (a fresh install): the result of a follow-up
// goes where the payment's own result went, and a window whose result could reach no one is refused.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: null, completionNotificationUrl: null, lifecycleNotificationUrl: null });

describe("with no notification address configured", () => {
  it("refuses a payment window without a notificationurl, and creates no session", async () => {
    const before = await db().paymentSession.count();
    const response = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^notificationurl: is required/) });
    expect(await db().paymentSession.count()).toBe(before);
  });

  it("sends a capture's result to the address the payment was initialized with", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    await db().paymentSession.create({
      data: {
        id: "sessfallback1",
        merchantId: merchant.merchantId, mode: "test" as const,
        amount: 1000n,
        currency: "DKK",
        expiresAt: new Date(),
        paymentId,
        status: "COMPLETED",
        notificationUrl: "https://shop.example/init-notify",
      },
    });
    const response = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 1 } });
    expect(response.status).toBe(200);
    const operation = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    expect(operation.notificationUrl).toBe("https://shop.example/init-notify");
  });

  it("still refuses a follow-up of a payment that had no address either", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const response = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 1 } });
    expect(response.status).toBe(400);
    expect(response.body.errordescription).toMatch(/^notificationurl: is required/);
  });
});
