// Life cycle management (6.6) from the acquirer sandbox's card-update feed, and the completion
// notification of a cardholder payment (6.2): on time-out through the session expiry sweep, and on
// approval as the cardholder flow sends it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { decryptPan } from "@/lib/cards/card-encryption";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { sendCompletionNotification } from "@/lib/notifications/send-completion-notification";
import { closeExpiredSessions } from "@/lib/cardholder/close-expired-sessions";
import { pollCardUpdates } from "@/lib/payments/poll-card-updates";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestCard, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { timedOutSessionNotification } from "../../helpers/expected-notifications";

useTestDatabase();

let api: MerchantApiHarness;
let merchant: TestMerchant;
let general: NotificationReceiver;
let lifecycle: NotificationReceiver;
let completion: NotificationReceiver;
let harness: InngestHarness;
let sandboxes: RunningSandboxes;

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  api = await startMerchantApi();
  [general, lifecycle, completion] = await Promise.all([
    startNotificationReceiver(),
    startNotificationReceiver(),
    startNotificationReceiver(),
  ]);
  harness = await startInngestHarness({ functions: merchantApiFunctions });
  merchant = await createTestMerchant({
    defaultNotificationUrl: general.url,
    lifecycleNotificationUrl: lifecycle.url,
    completionNotificationUrl: completion.url,
  });
});
afterAll(async () => {
  await harness?.stop();
  await Promise.all([general?.close(), lifecycle?.close(), completion?.close()]);
  await api?.close();
  await sandboxes?.close();
});

/** The merchant's Clearhaus account: the feed the updates are read from. */
async function clearhausAccountId(): Promise<string> {
  return (
    await db().acquirerAccount.findFirstOrThrow({
      where: { merchantId: merchant.merchantId, processor: "clearhaus" },
      select: { id: true },
    })
  ).id;
}

async function reportCardUpdate(body: Record<string, unknown>) {
  const response = await fetch(`${sandboxes.urls.clearhaus}/sandbox/card-updates`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
}

describe("life cycle", () => {
  /** A payment authorized at Clearhaus, whose card-update feed reports on the stored card. */
  const storedCardPayment = (options: { merchantPaymentId?: string; withStoredCard: TestCard }) =>
    createTestPayment({ merchantId: merchant.merchantId, processor: "clearhaus", ...options });

  it("updates the stored card's expiry and notifies the life-cycle address with paymentid and merchantpaymentid", async () => {
    const par = "V0010013018036776485736360001";
    const { paymentId, storedCardId } = await storedCardPayment({ merchantPaymentId: "sub1", withStoredCard: { par } });
    // An MIT child of the series on the same card is not notified separately.
    await db().payment.create({
      data: {
        id: "child1",
        merchantId: merchant.merchantId, mode: "test" as const,
        parentPaymentId: paymentId,
        storedCardId,
        amount: 1n,
        currency: "DKK",
        processor: "clearhaus",
        paymentType: "scheduled",
      },
    });
    await reportCardUpdate({ par, kind: "expiry", newExpMonth: 9, newExpYear: 2033 });
    const since = new Date(Date.now() - 60_000);
    const result = await pollCardUpdates({ accountId: await clearhausAccountId(), since: since });
    expect(result.error).toBeUndefined();
    expect(result.notificationIds).toHaveLength(1);
    const [notification] = await lifecycle.waitFor(1);
    expect(notification!.body).toEqual({ paymentid: paymentId, merchantpaymentid: "sub1", change: "expiry", mode: "test" });
    const card = await db().storedCard.findUniqueOrThrow({ where: { id: storedCardId! } });
    expect([card.expMonth, card.expYear]).toEqual([9, 2033]);

    // Polling the same feed again sends nothing twice.
    const again = await pollCardUpdates({ accountId: await clearhausAccountId(), since: since });
    expect(again.notificationIds).toHaveLength(0);
    expect(general.received).toHaveLength(0);
  });

  it("replaces the stored card number (encrypted) when the issuer reissued the card", async () => {
    const par = "V0010013018036776485736360002";
    const { paymentId, storedCardId } = await storedCardPayment({ withStoredCard: { par, pan: "4111111111111111" } });
    const received = lifecycle.received.length;
    await reportCardUpdate({ par, kind: "pan", newPan: "5555555555554444", newExpMonth: 1, newExpYear: 2031 });
    await pollCardUpdates({ accountId: await clearhausAccountId(), since: new Date(Date.now() - 60_000) });
    // The merchant hears of the new card too (a payment without merchantpaymentid: the field is empty).
    await lifecycle.waitFor(received + 1);
    expect(lifecycle.received.at(-1)!.body).toEqual({ paymentid: paymentId, merchantpaymentid: "", change: "pan", mode: "test" });
    const card = await db().storedCard.findUniqueOrThrow({ where: { id: storedCardId! } });
    expect(card).toMatchObject({ bin: "555555", last4: "4444", expMonth: 1, expYear: 2031 });
    expect(card.panEncrypted).not.toContain("5555555555554444");
    expect(decryptPan(card)).toBe("5555555555554444");
  });

  it("notifies a closed card without changing the stored card, and nothing for a card no payment holds", async () => {
    const par = "V0010013018036776485736360003";
    const { paymentId, storedCardId } = await storedCardPayment({ merchantPaymentId: "sub3", withStoredCard: { par } });
    const before = await db().storedCard.findUniqueOrThrow({ where: { id: storedCardId! } });
    await reportCardUpdate({ par, kind: "closed" });
    await reportCardUpdate({ par: "V0010013018036776485736369998", kind: "expiry", newExpMonth: 1, newExpYear: 2035 });
    const received = lifecycle.received.length;
    const result = await pollCardUpdates({ accountId: await clearhausAccountId(), since: new Date(Date.now() - 60_000) });
    expect(result.notificationIds).toHaveLength(1);
    await lifecycle.waitFor(received + 1);
    expect(lifecycle.received).toHaveLength(received + 1);
    expect(lifecycle.received.at(-1)!.body).toEqual({ paymentid: paymentId, merchantpaymentid: "sub3", change: "closed", mode: "test" });
    const after = await db().storedCard.findUniqueOrThrow({ where: { id: storedCardId! } });
    expect([after.expMonth, after.expYear, after.last4, after.panEncrypted]).toEqual([
      before.expMonth,
      before.expYear,
      before.last4,
      before.panEncrypted,
    ]);
  });
});

describe("completion notification", () => {
  it("closes a window whose timeout elapsed and notifies status timeout (6.2), once", async () => {
    const response = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: {
        merchantid: merchant.merchantId,
        merchantpaymentid: "cart9",
        amount: 1000,
        currency: "DKK",
        timeout: 60,
        merchantdata: "Y2FydD05",
      },
    });
    const sessionId = String(response.body.sessionid);
    const { expiresAt, createdAt } = await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(expiresAt.getTime() - createdAt.getTime()).toBe(60_000);
    const early = await closeExpiredSessions({ now: new Date(expiresAt.getTime() - 1) });
    expect(early.closed).not.toContain(sessionId);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("OPEN");

    const [onTime, again] = await Promise.all([closeExpiredSessions({ now: expiresAt }), closeExpiredSessions({ now: expiresAt })]);
    expect([...onTime.closed, ...again.closed]).toEqual([sessionId]);
    const [notification] = await completion.waitFor(1);
    expect(notification!.body).toEqual(timedOutSessionNotification({ sessionid: sessionId, merchantpaymentid: "cart9", merchantdata: "Y2FydD05" }));
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("TIMED_OUT");
    await harness.waitUntilIdle();
    expect(completion.received).toHaveLength(1);
  });

  it("leaves a window alone whose payment is under way", async () => {
    const response = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amount: 1000, currency: "DKK", timeout: 1 },
    });
    const sessionId = String(response.body.sessionid);
    await db().paymentSession.update({ where: { id: sessionId }, data: { status: "PROCESSING" } });
    const result = await closeExpiredSessions({ now: new Date(Date.now() + 5_000) });
    expect(result.closed).not.toContain(sessionId);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("PROCESSING");
  });

  it("sends the approved payment's completion once, with truncated card number, eci and par", async () => {
    const response = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, merchantpaymentid: "cart10", amount: 1000, currency: "DKK", notificationurl: general.url },
    });
    const sessionId = String(response.body.sessionid);
    // What goPay() leaves behind: an authorized payment linked to the session.
    const { paymentId } = await createTestPayment({
      merchantId: merchant.merchantId,
      merchantPaymentId: "cart10",
      withStoredCard: { pan: "4111111111111111", par: "V0010013018036776485736369999" },
    });
    await db().operation.updateMany({ where: { paymentId }, data: { eci: "05" } });
    await db().paymentSession.update({ where: { id: sessionId }, data: { paymentId, status: "COMPLETED" } });
    const first = await sendCompletionNotification({ sessionId });
    const second = await sendCompletionNotification({ sessionId });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    const [notification] = await general.waitFor(1);
    expect(notification!.body).toEqual({
      sessionid: sessionId,
      paymentid: paymentId,
      merchantpaymentid: "cart10",
      newmerchantpaymentid: "",
      status: "approved",
      responsecode: "00",
      authorizationcode: "123456",
      processor: "clearhaus",
      tcardnumber: "411111xxxxxx1111",
      eci: 5,
      merchantdata: "",
      par: "V0010013018036776485736369999",
      mode: "test",
    });
    // The expiry sweeper leaves a completed window alone: no time-out notification follows.
    await closeExpiredSessions({ now: new Date(Date.now() + 3_600_000) });
    await harness.waitUntilIdle();
    expect(general.received).toHaveLength(1);
  });
});
