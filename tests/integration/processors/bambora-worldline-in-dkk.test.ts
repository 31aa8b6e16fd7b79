// Issue 39: a Danish merchant pays in DKK with `processor: ["bambora"]` on a bambora account on the
// Worldline platform, as a merchant's server and a cardholder do, over real HTTP against the strict
// Worldline Direct sandbox (lib/sandboxes/acquirers/bambora/worldline, written from Worldline's
// reference): FORCE_3DS frictionless and with a challenge, SKIP_3DS, a decline; then a partial
// capture, a partial refund, a void and an unscheduled MIT, each with its notification. The merchant
// keeps its Bambora North America account (CAD) beside it: the account decides which API is spoken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { createAcquirerAccount } from "@/lib/routing/accounts/create-acquirer-account";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { platformSandboxAccountInput } from "@/lib/sandboxes/sandbox-merchant-accounts";
import { WORLDLINE_SANDBOX } from "@/lib/sandboxes/acquirers";
import { SANDBOX_CHALLENGE_CODE } from "@/lib/sandboxes/threeds/directory-server";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";
import { completeSandboxChallenge } from "@/tests/helpers/challenge-pages";
import { startHostedFieldsServer, type HostedFieldsServer } from "../../helpers/hosted-fields-server";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example";
const card = (pan: string) => ({ pan, expmonth: "12", expyear: String(new Date().getUTCFullYear() + 1), securitycode: "123" });

let api: MerchantApiHarness;
let hosted: HostedFieldsServer;
let harness: InngestHarness;
let sandboxes: RunningSandboxes;
let receiver: NotificationReceiver;
let merchant: TestMerchant;
let worldlineAccountId = "";

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["bambora"], worldline: true, extensions: true });
  receiver = await startNotificationReceiver();
  api = await startMerchantApi();
  hosted = await startHostedFieldsServer();
  harness = await startInngestHarness({ functions: merchantApiFunctions });
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });
  worldlineAccountId = (await createAcquirerAccount({ merchantId: merchant.merchantId, input: platformSandboxAccountInput(WORLDLINE_SANDBOX, 0) })).id;
});
afterAll(async () => {
  await harness?.stop();
  await hosted?.close();
  await api?.close();
  await receiver?.close();
  await sandboxes?.close();
});

const post = async (path: string, body: unknown) =>
  (await (
    await fetch(`${hosted.origin}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: hosted.origin }, body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>;

async function openWindow(set3ds: string, merchantpaymentid: string) {
  const opened = await api.call("POST", "/api/initdynamic", {
    apiKey: merchant.apiKey,
    body: { merchantid: merchant.merchantId, merchantpaymentid, amount: 12500, currency: "DKK", set3ds, processor: ["bambora"] },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const sessionId = String(opened.body.sessionid);
  const paymentId = String((await post(`/dynamic/${sessionId}/payments`, {})).paymentid);
  return { sessionId, paymentId };
}

const sendCard = (sessionId: string, paymentId: string, pan: string) =>
  post(`/dynamic/${sessionId}/payments/${paymentId}/authorize`, { card: card(pan), binding: createOriginBinding(sessionId, MERCHANT_ORIGIN) });

/** The cardholder completes the sandbox ACS's challenge: our page, the ACS, the code, the CRes back to us. */
async function completeChallenge(sessionId: string, url: string): Promise<void> {
  await completeSandboxChallenge({ origin: hosted.origin, url, binding: createOriginBinding(sessionId, MERCHANT_ORIGIN), code: SANDBOX_CHALLENGE_CODE });
}

const notificationFor = (predicate: (body: Record<string, unknown>) => boolean) =>
  eventually(() => receiver.received.find((request) => predicate(request.body)), { what: "the notification", timeoutMs: 15_000, intervalMs: 25 });

async function worldlinePaymentOf(paymentId: string) {
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true, processor: true, acquirerAccountId: true, eci: true } });
  const ledger = sandboxes.ledgers["bambora-worldline"]!;
  return { payment, transactions: ledger.transactions() };
}

describe("bambora on the Worldline platform, in DKK", () => {
  let frictionless = { sessionId: "", paymentId: "" };

  it("FORCE_3DS frictionless: authorized at Worldline with our 3-D Secure result; the completion notification names bambora", async () => {
    frictionless = await openWindow("FORCE_3DS", "wlfrictionless");
    expect(await sendCard(frictionless.sessionId, frictionless.paymentId, "4111111111111111")).toEqual({ result: "approved", paymentid: frictionless.paymentId });
    const { payment } = await worldlinePaymentOf(frictionless.paymentId);
    expect(payment).toMatchObject({ status: "AUTHORIZED", processor: "bambora", acquirerAccountId: worldlineAccountId, eci: "05" });
    const completion = await notificationFor((body) => body.sessionid === frictionless.sessionId);
    expect(completion.body).toMatchObject({ status: "approved", processor: "bambora", paymentid: frictionless.paymentId });
  });

  it("FORCE_3DS with a challenge, SKIP_3DS, and a decline", async () => {
    const challenged = await openWindow("FORCE_3DS", "wlchallenge");
    const first = await sendCard(challenged.sessionId, challenged.paymentId, "4000000000003220");
    expect(first.result).toBe("challenge");
    await completeChallenge(challenged.sessionId, String(first.url));
    expect(await sendCard(challenged.sessionId, challenged.paymentId, "4000000000003220")).toEqual({ result: "approved", paymentid: challenged.paymentId });
    expect((await worldlinePaymentOf(challenged.paymentId)).payment).toMatchObject({ status: "AUTHORIZED", acquirerAccountId: worldlineAccountId });

    const skipped = await openWindow("SKIP_3DS", "wlskip");
    expect(await sendCard(skipped.sessionId, skipped.paymentId, "4111111111111111")).toEqual({ result: "approved", paymentid: skipped.paymentId });

    const declined = await openWindow("SKIP_3DS", "wldecline");
    expect(await sendCard(declined.sessionId, declined.paymentId, "4000000000000002")).toMatchObject({ result: "failed", errorcode: "PAYMENT_DECLINED" });
    const attempt = await db().operation.findFirstOrThrow({ where: { paymentId: declined.paymentId, type: "authorize" } });
    expect(attempt).toMatchObject({ processor: "bambora", acquirerAccountId: worldlineAccountId, status: "declined", responseCode: "05", declineClass: "declined-soft" });
  });

  it("a partial capture, a second capture and a partial refund at Worldline, each with its notification", async () => {
    const call = (path: string, body: Record<string, unknown>) => api.call("POST", path, { apiKey: merchant.apiKey, body: { merchantid: merchant.merchantId, ...body } });
    const capture = await call(`/api/${frictionless.paymentId}/capture`, { amount: 5000 });
    expect(capture.status, JSON.stringify(capture.body)).toBe(200);
    expect((await notificationFor((body) => body.responseid === capture.body.responseid)).body).toMatchObject({ status: "approved" });
    // Worldline captures a pre-authorization several times (isFinal false), unlike Bambora North America.
    const second = await call(`/api/${frictionless.paymentId}/capture`, { amount: 2500 });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect((await notificationFor((body) => body.responseid === second.body.responseid)).body).toMatchObject({ status: "approved" });
    const refund = await call(`/api/${frictionless.paymentId}/refund`, { amount: 3000 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect((await notificationFor((body) => body.responseid === refund.body.responseid)).body).toMatchObject({ status: "approved" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: frictionless.paymentId } })).toMatchObject({ capturedAmount: 7500n, refundedAmount: 3000n });
  });

  it("a void of an authorization, and an unscheduled MIT on the stored card, each with its notification", async () => {
    const voided = await openWindow("SKIP_3DS", "wlvoid");
    expect((await sendCard(voided.sessionId, voided.paymentId, "4111111111111111")).result).toBe("approved");
    const cancel = await api.call("POST", `/api/${voided.paymentId}/void`, { apiKey: merchant.apiKey, body: { merchantid: merchant.merchantId } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect((await notificationFor((body) => body.responseid === cancel.body.responseid)).body).toMatchObject({ status: "approved" });
    expect((await db().payment.findUniqueOrThrow({ where: { id: voided.paymentId } })).status).toBe("VOIDED");

    const mit = await api.call("POST", "/api/mit", {
      apiKey: merchant.apiKey,
      body: {
        merchantid: merchant.merchantId,
        paymentid: frictionless.paymentId,
        newmerchantpaymentid: "wlrenewal1",
        amount: 4000,
        currency: "DKK",
        paymenttype: "unscheduled",
        processor: "bambora",
      },
    });
    expect(mit.status, JSON.stringify(mit.body)).toBe(200);
    const notified = await notificationFor((body) => body.responseid === mit.body.responseid);
    expect(notified.body).toMatchObject({ status: "approved", processor: "bambora" });
    const mitPayment = await db().payment.findFirstOrThrow({ where: { merchantPaymentId: "wlrenewal1" } });
    expect(mitPayment).toMatchObject({ status: "AUTHORIZED", acquirerAccountId: worldlineAccountId });
  });
});
