// GET /api/{paymentid}/payment?sync=1 (beyond the spec, opt-in): the payment record of 2.2 in the
// answer, for a merchant who missed a notification; nothing is sent. Without it the spec's
// asynchronous lookup stays (tests/integration/api/payment-flows.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });
let paymentId: string;

beforeAll(async () => {
  const payment = await createTestPayment({
    merchantId: merchant.merchantId,
    merchantPaymentId: "order77",
    status: "CAPTURED",
    captures: [10_000n],
    withStoredCard: { pan: "4111111111111111", issuer: "Sandbox Bank", scheme: "visa", funding: "debit", segment: "consumer" },
  });
  paymentId = payment.paymentId;
});

describe("the synchronous payment lookup", () => {
  it("answers the whole record of 2.2 with its responseid, and sends no notification", async () => {
    const before = await db().notification.count();
    const response = await api.call("GET", "/api/order77/payment?sync=1&gfx=1", { apiKey: merchant.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      merchantid: merchant.merchantId,
      paymentid: paymentId,
      merchantpaymentid: "order77",
      responseid: expect.any(String),
      last4: "1111",
      scheme: "visa",
      "Expiry date": expect.stringMatching(/^\d{2}\/\d{4}$/),
      gfx: expect.objectContaining({ mimetype: "image/png" }),
    });
    expect(response.body.operations).toEqual(expect.arrayContaining([expect.objectContaining({ operationtype: "capture", amount: "10000" })]));
    expect(await db().notification.count()).toBe(before);
  });

  it("stays asynchronous by default: a responseid, and the record goes out as a notification", async () => {
    const before = await db().notification.count();
    const response = await api.call("GET", "/api/order77/payment", { apiKey: merchant.apiKey });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["responseid"]);
    expect(await db().notification.count()).toBe(before + 1);
  });

  it("refuses sync with a notificationurl, and a sync value other than 0 or 1", async () => {
    const both = await api.call("GET", "/api/order77/payment?sync=1&notificationurl=http%3A%2F%2F127.0.0.1%3A9%2Fx", { apiKey: merchant.apiKey });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^notificationurl: is not used with sync=1/) });
    const wrong = await api.call("GET", "/api/order77/payment?sync=yes", { apiKey: merchant.apiKey });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errordescription).toMatch(/^sync: must be 0/);
  });
});
