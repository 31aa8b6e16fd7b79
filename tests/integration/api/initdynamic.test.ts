// POST /api/initdynamic (spec 4.1, 2.1) over real HTTP: the response fields, the stored session,
// every validation rule, and payments on behalf of stored card data.
import { describe, expect, it } from "vitest";
import { startSessionPayment } from "@/lib/cardholder/start-session-payment";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });

const init = (body: Record<string, unknown>) =>
  api.call("POST", "/api/initdynamic", {
    apiKey: merchant.apiKey,
    body: { merchantid: merchant.merchantId, amount: 250, currency: "DKK", ...body },
  });

describe("a new session", () => {
  it("answers every field of spec 2.1 with hosted-field addresses under the cit base URL", async () => {
    const response = await init({
      merchantpaymentid: "order42",
      reference: "Order 42",
      idpan: "card-number",
      idexpmonth: "exp-month",
      idexpyear: "exp-year",
      idsecuritycode: "cvc",
      notificationurl: "https://shop.example/notify",
      accepturl: "https://shop.example/ok",
      cancelurl: "https://shop.example/cancel",
    });
    expect(response.status).toBe(200);
    const body = response.body as Record<string, string | number>;
    const sessionId = String(body.sessionid);
    expect(sessionId).toMatch(/^[a-zA-Z0-9]{1,32}$/);
    const base = `${config().apiBaseUrls.cit}/dynamic/${sessionId}`;
    expect(body).toEqual({
      merchantid: merchant.merchantId,
      merchantpaymentid: "order42",
      sessionid: sessionId,
      accepturl: "https://shop.example/ok",
      cancelurl: "https://shop.example/cancel",
      notificationurl: "https://shop.example/notify",
      amount: 250,
      currency: "DKK",
      reference: "Order 42",
      idpan: "card-number",
      idexpmonth: "exp-month",
      idexpyear: "exp-year",
      idsecuritycode: "cvc",
      dfurlpan: `${base}/pan`,
      dfurlexpmonth: `${base}/expmonth`,
      dfurlexpyear: `${base}/expyear`,
      dfurlsecuritycode: `${base}/securitycode`,
      dfurlccsingle: `${base}/ccsingle`,
      dfurlscriptinclude: `${base}/dynamic.js`,
    });
    const stored = await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(stored).toMatchObject({
      merchantId: merchant.merchantId,
      merchantPaymentId: "order42",
      amount: 250n,
      currency: "DKK",
      set3ds: "FORCE_3DS",
      rule: 1,
      timeoutSeconds: 900,
      instantCapture: 0,
      processors: [],
      status: "OPEN",
      notificationUrl: "https://shop.example/notify",
    });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(900_000);
  });

  it("applies the defaults: timeout 900, FORCE_3DS, rule 1, instantcapture 0 and default element ids", async () => {
    const response = await init({});
    expect(response.body).toMatchObject({
      idpan: "pan",
      idexpmonth: "expmonth",
      idexpyear: "expyear",
      idsecuritycode: "securitycode",
      merchantpaymentid: "",
      reference: "",
    });
  });

  it("accepts the options within their ranges, a lower-case set3ds and a digit-string amount", async () => {
    const response = await init({
      amount: "0",
      // The one currency of the merchant's bambora account (Bambora North America), in lower case.
      currency: "cad",
      set3ds: "fallback_3ds",
      rule: 2,
      timeout: 1200,
      instantcapture: 2,
      processor: ["bambora", "finaro"],
      merchantdata: Buffer.from("cart=1").toString("base64"),
      textonstatement: "SHOP 42",
    });
    expect(response.status).toBe(200);
    const stored = await db().paymentSession.findUniqueOrThrow({ where: { id: String(response.body.sessionid) } });
    expect(stored).toMatchObject({
      amount: 0n,
      currency: "CAD",
      set3ds: "FALLBACK_3DS",
      rule: 2,
      timeoutSeconds: 1200,
      instantCapture: 2,
      processors: ["bambora", "finaro"],
      textOnStatement: "SHOP 42",
    });
  });
});

describe("the cardholder (customer)", () => {
  it("is kept with the session and given to the payment the window opens, where details and 3-D Secure read it", async () => {
    const customer = { email: "jane@shop.example", firstname: "Jane", surename: "Hansen", ipaddress: "192.0.2.44" };
    const response = await init({ customer });
    expect(response.status).toBe(200);
    const sessionId = String(response.body.sessionid);
    // The spec's session (2.1) has no customer: the answer does not echo it.
    expect(response.body).not.toHaveProperty("customer");
    const started = await startSessionPayment({ sessionId });
    expect(started.result).toBe("started");
    const payment = await db().payment.findUniqueOrThrow({
      where: { id: String(started.paymentid) },
      select: { customerEmail: true, customerFirstName: true, customerSurname: true, customerIpAddress: true },
    });
    expect(payment).toEqual({ customerEmail: "jane@shop.example", customerFirstName: "Jane", customerSurname: "Hansen", customerIpAddress: "192.0.2.44" });
  });

  it("is optional: a window without it opens a payment with no customer", async () => {
    const response = await init({});
    const started = await startSessionPayment({ sessionId: String(response.body.sessionid) });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: String(started.paymentid) }, select: { customerEmail: true, customerSurname: true } });
    expect(payment).toEqual({ customerEmail: null, customerSurname: null });
  });
});

describe("validation", () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ["amount with a decimal comma", { amount: "12,50" }, /^amount: .*digits/],
    ["amount with letters", { amount: "12abc" }, /^amount: /],
    ["amount with decimals", { amount: 12.5 }, /^amount: .*whole number/],
    ["negative amount", { amount: -1 }, /^amount: /],
    ["amount over 12 digits", { amount: "1234567890123" }, /^amount: /],
    ["missing amount", { amount: undefined }, /^amount: is required/],
    ["unknown currency", { currency: "XYZ" }, /^currency: .*ISO 4217/],
    ["numeric currency", { currency: "208" }, /^currency: /],
    ["reference with symbols", { reference: "order#1" }, /^reference: .*0 to 32/],
    ["reference too long", { reference: "a".repeat(33) }, /^reference: /],
    ["textonstatement with symbols", { textonstatement: "shop!" }, /^textonstatement: /],
    ["timeout above 1200", { timeout: 1201 }, /^timeout: .*1200/],
    ["timeout zero", { timeout: 0 }, /^timeout: /],
    ["timeout not a number", { timeout: "soon" }, /^timeout: /],
    ["instantcapture 3", { instantcapture: 3 }, /^instantcapture: /],
    ["set3ds unknown", { set3ds: "MAYBE_3DS" }, /^set3ds: /],
    ["rule 3", { rule: 3 }, /^rule: /],
    ["unknown processor", { processor: ["stripe"] }, /^processor\.0: .*finaro, clearhaus, bambora/],
    ["processor twice", { processor: ["finaro", "finaro"] }, /^processor: .*twice/],
    ["merchantdata over 4096", { merchantdata: "a".repeat(4097) }, /^merchantdata: .*4096/],
    ["notificationurl not a URL", { notificationurl: "notify-me" }, /^notificationurl: /],
    ["notificationurl with another scheme", { notificationurl: "ftp://shop.example/x" }, /^notificationurl: /],
    ["merchantpaymentid with symbols", { merchantpaymentid: "order-42" }, /^merchantpaymentid: .*1 to 32/],
    ["element id with a space", { idpan: "card number" }, /^idpan: /],
    ["unknown parameter", { surname: "x" }, /^surname: unknown parameter/],
    ["customer with a malformed email", { customer: { email: "not-an-address" } }, /^customer\.email: /],
    ["customer with an unknown field", { customer: { phone: "12345678" } }, /^customer\.phone: unknown parameter/],
    ["customer not an object", { customer: "Jane" }, /^customer: /],
    ["unknown hostedid", { hostedid: "nope" }, /^hostedid: no hosted integration/],
    ["unknown paymentid", { paymentid: "doesnotexist" }, /^paymentid: no such payment/],
  ];
  it.each(cases)("refuses %s with INVALID_PARAMETER naming the parameter, and stores nothing", async (_name, override, description) => {
    const before = await db().paymentSession.count();
    const response = await init(override);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("INVALID_PARAMETER");
    expect(response.body.errordescription).toMatch(description);
    expect(await db().paymentSession.count()).toBe(before);
  });

  it("N12: names a misspelt parameter (not the one it left missing), with the parameter it was meant to be, and stores nothing", async () => {
    const before = await db().paymentSession.count();
    const response = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amout: 12500, currency: "DKK", notificationUrl: "https://shop.example/notify" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "amout: unknown parameter (did you mean amount?); also unknown: notificationUrl" });
    expect(await db().paymentSession.count()).toBe(before);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, rawBody: "{amount:" });
    expect(response.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "body: is not valid JSON" });
  });

  it("refuses a merchantpaymentid another payment already has", async () => {
    await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId: "taken1" });
    const response = await init({ merchantpaymentid: "taken1" });
    expect(response.body.errordescription).toBe("merchantpaymentid: is already used by another payment of this merchant");
  });
});

describe("payment on behalf of stored card data", () => {
  it("links the session to the stored payment named by paymentid, with the new payment's reference", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const response = await init({ paymentid: paymentId, newmerchantpaymentid: "renewal7" });
    expect(response.status).toBe(200);
    const stored = await db().paymentSession.findUniqueOrThrow({ where: { id: String(response.body.sessionid) } });
    expect(stored).toMatchObject({ onBehalfOfPaymentId: paymentId, newMerchantPaymentId: "renewal7" });
  });

  it("finds the stored payment by merchantpaymentid when newmerchantpaymentid is given", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId: "sub100" });
    const response = await init({ merchantpaymentid: "sub100", newmerchantpaymentid: "sub101" });
    const stored = await db().paymentSession.findUniqueOrThrow({ where: { id: String(response.body.sessionid) } });
    expect(stored).toMatchObject({ onBehalfOfPaymentId: paymentId, merchantPaymentId: "sub100", newMerchantPaymentId: "sub101" });
  });

  it("refuses a payment without stored card data and another merchant's payment", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, withStoredCard: false });
    const noCard = await init({ paymentid: paymentId });
    expect(noCard.body.errordescription).toBe("paymentid: the payment has no stored card data to pay with");
    const stranger = await createTestMerchant();
    const theirs = await createTestPayment({ merchantId: stranger.merchantId, merchantPaymentId: "theirs1" });
    for (const override of [{ paymentid: theirs.paymentId }, { merchantpaymentid: "theirs1", newmerchantpaymentid: "mine1" }]) {
      const response = await init(override);
      expect(response.body.error).toBe("INVALID_PARAMETER");
      expect(response.body.errordescription).toMatch(/no such payment$/);
    }
  });

  it("uses the hosted integration named by hostedid", async () => {
    const hosted = await db().hostedIntegration.create({
      data: { id: "hi1", merchantId: merchant.merchantId, hostedId: "checkout-b", name: "B" },
    });
    const response = await init({ hostedid: "checkout-b" });
    const stored = await db().paymentSession.findUniqueOrThrow({ where: { id: String(response.body.sessionid) } });
    expect(stored.hostedIntegrationId).toBe(hosted.id);
  });
});
