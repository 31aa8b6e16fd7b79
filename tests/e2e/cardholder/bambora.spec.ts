// A cardholder payment routed to bambora (Bambora North America Payments API v1, against its strict
// sandbox) in Chromium: Bambora's own documented test cards typed into our iframes, our 3-D Secure
// result passed through, one (partial) completion, a return, and what Bambora cannot do (a second
// completion, payouts) refused by our API with a clear error. CAD: the demo merchant's bambora
// account settles CAD (lib/sandboxes/acquirers/bambora/accounts.ts).
import { expect, test } from "@playwright/test";
import { demoMerchantApi } from "../../helpers/e2e/demo-service";
import { callbackNames, openDemoShop, payWithCard, testCard, useNotificationReceiver, waitForCallback } from "../../helpers/e2e/cardholder";

const receiver = useNotificationReceiver();

/** Bambora North America test cards (references/payment_APIs/test_cards.md). */
const APPROVED_VISA = "4030000010001234";
const DECLINED_VISA = "4003050500040005";

test("a CAD payment at bambora: approved by Bambora's test card, completed once in part, returned; a second completion and a payout are refused", async ({
  page,
  request,
}) => {
  const merchantpaymentid = `bna${Date.now()}`;
  const sessionId = await openDemoShop(page, {
    processor: "bambora",
    currency: "CAD",
    amount: 12_500,
    merchantpaymentid,
    notificationurl: receiver.url("bambora-paid"),
  });
  await payWithCard(page, testCard(APPROVED_VISA));
  const success = await waitForCallback(page, "jspaymentsuccess");
  const paymentid = success.payload.paymentid as string;
  expect(await callbackNames(page)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
  const paid = await receiver.waitFor("bambora-paid");
  // Bambora's test accounts answer auth_code "TEST".
  expect(paid.body).toMatchObject({
    sessionid: sessionId,
    paymentid,
    merchantpaymentid,
    status: "approved",
    responsecode: "00",
    authorizationcode: "TEST",
    processor: "bambora",
    tcardnumber: "403000xxxxxx1234",
  });

  const post = demoMerchantApi(request);
  const capture = await post(`/api/${paymentid}/capture`, { amount: 10_000, notificationurl: receiver.url("bambora-capture") });
  expect(capture.status()).toBe(200);
  expect((await receiver.waitFor("bambora-capture")).body).toMatchObject({ paymentid, status: "approved", responsecode: "00" });

  // Bambora completes a pre-authorization once: what was not captured is not taken, and nothing is sent.
  const second = await post(`/api/${paymentid}/capture`, { amount: 2_500 });
  expect(second.status()).toBe(400);
  expect(await second.json()).toEqual({
    error: "INVALID_PARAMETER",
    errordescription: expect.stringMatching(/^paymentid: bambora captures an authorization once/),
  });

  const refund = await post(`/api/${paymentid}/refund`, { amount: 4_000, notificationurl: receiver.url("bambora-refund") });
  expect(refund.status()).toBe(200);
  expect((await receiver.waitFor("bambora-refund")).body).toMatchObject({ paymentid, status: "approved", responsecode: "00" });

  // Bambora North America has no payouts.
  const payout = await post(`/api/${paymentid}/payout`, {
    amount: 1_000,
    currency: "CAD",
    email: "card.holder@example.com",
    firstname: "Card",
    surename: "Holder",
    processor: "bambora",
  });
  expect(payout.status()).toBe(400);
  expect(await payout.json()).toEqual({ error: "INVALID_PARAMETER", errordescription: "processor: bambora offers no payouts" });
});

test("Bambora's declined test card is reported through jspaymentfailed", async ({ page }) => {
  const sessionId = await openDemoShop(page, { processor: "bambora", currency: "CAD", amount: 2_000 });
  await payWithCard(page, testCard(DECLINED_VISA));
  const failed = await waitForCallback(page, "jspaymentfailed");
  expect(failed.payload).toEqual({
    sessionid: sessionId,
    paymentid: failed.payload.paymentid,
    errorcode: "PAYMENT_DECLINED",
    errortext: "The payment was declined.",
  });
});

test("3-D Secure at bambora: our frictionless result is passed through and its ECI reaches the notification", async ({ page }) => {
  const sessionId = await openDemoShop(page, {
    processor: "bambora",
    currency: "CAD",
    amount: 3_000,
    set3ds: "FORCE_3DS",
    notificationurl: receiver.url("bambora-3ds"),
  });
  await payWithCard(page, testCard("4111111111111111"));
  const success = await waitForCallback(page, "jspaymentsuccess");
  const notification = await receiver.waitFor("bambora-3ds");
  expect(notification.body).toMatchObject({
    sessionid: sessionId,
    paymentid: success.payload.paymentid,
    status: "approved",
    processor: "bambora",
    eci: 5,
  });
});
