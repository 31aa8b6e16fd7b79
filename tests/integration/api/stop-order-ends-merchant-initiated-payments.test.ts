// A cardholder's stop order (issue 38, item 5; decision 0191): Clearhaus answers an MIT with 40420
// "merchant blocked by cardholder" ("a notice to halt all future merchant-initiated-transactions on
// this card"). As a merchant's server sees it, over real HTTP with the executor and the Clearhaus
// sandbox: the MIT is notified declined (R1), the life-cycle address hears that the card's MITs
// stopped, and the next /api/mit on that card is refused at once, with nothing sent to an acquirer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { CardDetails } from "@/lib/cards/card-details";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

let api: MerchantApiHarness;
let merchant: TestMerchant;
let general: NotificationReceiver;
let lifecycle: NotificationReceiver;
let harness: InngestHarness;
let sandboxes: RunningSandboxes;

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  api = await startMerchantApi();
  [general, lifecycle] = await Promise.all([startNotificationReceiver(), startNotificationReceiver()]);
  harness = await startInngestHarness({ functions: merchantApiFunctions });
  merchant = await createTestMerchant({ defaultNotificationUrl: general.url, lifecycleNotificationUrl: lifecycle.url });
});
afterAll(async () => {
  await harness?.stop();
  await Promise.all([general?.close(), lifecycle?.close()]);
  await api?.close();
  await sandboxes?.close();
});

/** A cardholder payment approved at Clearhaus with this card, stored for later payments (a real series there). */
async function approvedCardholderPayment(pan: string, merchantPaymentId: string) {
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId, status: "PENDING", processor: null, withStoredCard: false });
  const card = new CardDetails({ pan, expMonth: 12, expYear: new Date().getFullYear() + 3, securityCode: "987" });
  const approved = await authorizePayment({ paymentId, source: { kind: "card", card }, processors: ["clearhaus"] });
  expect(approved).toMatchObject({ status: "approved", processor: "clearhaus" });
  return paymentId;
}

function mit(paymentId: string) {
  return api.call("POST", "/api/mit", {
    apiKey: merchant.apiKey,
    body: { merchantid: merchant.merchantId, paymentid: paymentId, amount: 4900, currency: "DKK", paymenttype: "scheduled", processor: "clearhaus" },
  });
}

/** The MIT notification (6.3) of the request answered `responseId`, at the general address. */
function mitNotification(responseId: unknown) {
  return eventually(() => general.received.find((request) => request.body.responseid === responseId), {
    what: "the MIT notification (6.3)",
    timeoutMs: 20_000,
    intervalMs: 25,
  });
}

describe("a cardholder's stop order (stop-recurring)", () => {
  it("stop-recurring at clearhaus: the MIT is declined R1, the life-cycle address hears mit_stopped, and the next MIT on the card is refused without an acquirer call", async () => {
    const parentId = await approvedCardholderPayment("4000000000000291", "subscription-291");

    const first = await mit(parentId);
    expect(first.status).toBe(200);
    const declined = await mitNotification(first.body.responseid);
    expect(declined.body).toMatchObject({ status: "declined", processor: "clearhaus", responsecode: "R1", authorizationcode: "" });
    const attempt = await db().operation.findFirstOrThrow({ where: { paymentId: String(declined.body.paymentid), type: "authorize" } });
    expect(attempt).toMatchObject({ declineClass: "stop-recurring", responseCode: "R1" });

    // The life-cycle notification of the stored payment (spec 6.6), saying what changed.
    const notice = await eventually(() => lifecycle.received.find((request) => request.body.paymentid === parentId), {
      what: () => `the life-cycle notification; received ${JSON.stringify(lifecycle.received.map((request) => request.body))}`,
      timeoutMs: 20_000,
      intervalMs: 25,
    });
    expect(notice.body).toEqual({ paymentid: parentId, merchantpaymentid: "subscription-291", change: "mit_stopped", mode: "test" });
    expect(notice.headers["x-cps-notification-kind"]).toBe("lifecycle");

    const storedCard = await db().payment.findUniqueOrThrow({ where: { id: parentId }, select: { storedCard: true } });
    expect(storedCard.storedCard).toMatchObject({ mitStopProcessor: "clearhaus", mitStopResponseCode: "R1", mitStopAcquirerCode: "40420" });

    // The next MIT on the card: refused at once, nothing created, nothing sent to Clearhaus.
    const sentBefore = sandboxes.ledgers.clearhaus!.transactions().length;
    const paymentsBefore = await db().payment.count();
    const second = await mit(parentId);
    expect(second.status).toBe(400);
    const today = new Date().toISOString().slice(0, 10);
    expect(second.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: `paymentid: the cardholder stopped merchant-initiated payments on this card: clearhaus answered R1 (40420) on ${today}; no MIT is sent for it (a new cardholder payment stores the card again)`,
    });
    expect(await db().payment.count()).toBe(paymentsBefore);
    expect(sandboxes.ledgers.clearhaus!.transactions().length).toBe(sentBefore);
    // One life-cycle notification for the stop, however many MITs are refused after it.
    expect(lifecycle.received.filter((request) => request.body.paymentid === parentId)).toHaveLength(1);
  });

  it("a stop order on one card leaves the merchant's other stored cards alone", async () => {
    const parentId = await approvedCardholderPayment("4111111111111111", "subscription-1111");
    const response = await mit(parentId);
    expect(response.status).toBe(200);
    const notification = await mitNotification(response.body.responseid);
    expect(notification.body).toMatchObject({ status: "approved", processor: "clearhaus", responsecode: "00" });
    expect(lifecycle.received.filter((request) => request.body.paymentid === parentId)).toHaveLength(0);
  });
});
