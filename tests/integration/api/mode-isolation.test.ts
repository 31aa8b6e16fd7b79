// Test mode and live mode over real HTTP (docs/decisions/0108-test-mode-and-live-mode.md), in
// the style of the cross-merchant proof (idempotency-and-access.test.ts): one merchant with a test
// key and a live key, a payment of each mode under the same merchantpaymentid. Every endpoint that
// takes a payment answers a key of the other mode exactly as it answers another merchant's payment,
// and changes nothing; each key reaches its own mode's payment by both references; sessions, request
// log rows, stored cards and notifications take the key's mode. Live payments go only to live
// accounts at the acquirer's production endpoint (*_BASE_URL, here a recording stand-in), never to a
// sandbox, and a live payment with a published test card is declined before any acquirer call.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { createAcquirerAccount } from "@/lib/routing/accounts/create-acquirer-account";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { flushApiRequestLog } from "@/lib/api/api-request-log";
import { createPendingPayment, testCard } from "@/tests/helpers/payment-factories";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { sandboxAccountInput } from "@/lib/sandboxes/sandbox-merchant-accounts";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

/** A Luhn-valid Visa number that is no published test card: what a real cardholder's card looks like here. */
const REAL_LOOKING_CARD = "4571999900000120";

let api: MerchantApiHarness;
let merchant: TestMerchant;
let stranger: TestMerchant;
let receiver: NotificationReceiver;
let harness: InngestHarness;
let sandboxes: RunningSandboxes;
let livePaymentId: string;
let testPaymentId: string;
let strangerPaymentId: string;
let liveAccountId: string;

/** A payment of 100.00 captured in full, with this order number. */
async function capturedPayment(owner: TestMerchant, mode: "live" | "test", merchantPaymentId: string): Promise<string> {
  const { paymentId } = await createTestPayment({ merchantId: owner.merchantId, mode, merchantPaymentId, status: "CAPTURED", captures: [10_000n] });
  return paymentId;
}

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["finaro", "clearhaus", "bambora"], threeDs: false, extensions: true }); // extensions: the stand-in for a production endpoint approves a real-looking card
  api = await startMerchantApi();
  receiver = await startNotificationReceiver();
  harness = await startInngestHarness({ functions: merchantApiFunctions });
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });
  stranger = await createTestMerchant({ defaultNotificationUrl: receiver.url });
  // The same order number in both modes: allowed, as an order used while testing can be used live.
  livePaymentId = await capturedPayment(merchant, "live", "order7");
  testPaymentId = await capturedPayment(merchant, "test", "order7");
  strangerPaymentId = await capturedPayment(stranger, "live", "order8");
  // Before it has a live acquirer account, a live payment has nowhere to go: the test accounts (the
  // factory's sandbox accounts) are never a fallback.
  const refused = await api.call("POST", "/api/initdynamic", {
    apiKey: merchant.liveApiKey,
    body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK" },
  });
  expect(refused.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/live acquirer account/) });
  liveAccountId = (
    await createAcquirerAccount({
      merchantId: merchant.merchantId,
      input: sandboxAccountInput("clearhaus", 1, { mode: "live", name: "clearhaus live", currencies: "DKK" }),
    })
  ).id;
});
afterAll(async () => {
  await harness?.stop();
  await receiver?.close();
  await api?.close();
  await sandboxes?.close();
});

/** Every endpoint that takes a payment, called with `apiKey` on `ref`: the answers in order. */
async function callEveryPaymentEndpoint(apiKey: string, merchantId: string, ref: string) {
  const responses = [
    await api.call("POST", `/api/${ref}/capture`, { apiKey, body: {} }),
    await api.call("POST", `/api/${ref}/refund`, { apiKey, body: {} }),
    await api.call("POST", `/api/${ref}/void`, { apiKey, body: {} }),
    await api.call("POST", `/api/${ref}/payout`, { apiKey, body: { amount: 100, currency: "DKK" } }),
    await api.call("GET", `/api/${ref}/payment?gfx=1`, { apiKey }),
    await api.call("POST", "/api/mit", {
      apiKey,
      body: { merchantid: merchantId, paymentid: ref, amount: 1, currency: "DKK", paymenttype: "scheduled" },
    }),
    await api.call("POST", "/api/initdynamic", { apiKey, body: { merchantid: merchantId, paymentid: ref, amount: 1, currency: "DKK" } }),
  ];
  return responses.map((response) => ({ status: response.status, body: response.body }));
}

async function counts() {
  return {
    operations: await db().operation.count(),
    payments: await db().payment.count(),
    notifications: await db().notification.count(),
    sessions: await db().paymentSession.count(),
  };
}

describe("a key never reaches the other mode's payments", () => {
  it("a test key on a live paymentid (and a live key on a test one) gets the answer another merchant's payment gets, and nothing changes", async () => {
    const before = await counts();
    // The reference answers: the same merchant's key on another merchant's payment.
    const foreign = await callEveryPaymentEndpoint(merchant.liveApiKey, merchant.merchantId, strangerPaymentId);
    for (const answer of foreign) expect(answer.status).toBe(400);
    expect(foreign.map((answer) => String(answer.body.errordescription))).toEqual([
      ...Array(5).fill("paymentid: no such payment"),
      expect.stringMatching(/no such payment$/),
      "paymentid: no such payment",
    ]);
    const otherMode: Array<[string, string]> = [
      [merchant.apiKey, livePaymentId],
      [merchant.liveApiKey, testPaymentId],
    ];
    for (const [apiKey, ref] of otherMode) {
      expect(await callEveryPaymentEndpoint(apiKey, merchant.merchantId, ref), ref).toEqual(foreign);
    }
    expect(await counts()).toEqual(before);
  });

  it("each key reaches its own mode's payment by paymentid and by the shared merchantpaymentid", async () => {
    for (const [apiKey, paymentId, mode] of [
      [merchant.apiKey, testPaymentId, "test"],
      [merchant.liveApiKey, livePaymentId, "live"],
    ] as const) {
      for (const ref of [paymentId, "order7"]) {
        const response = await api.call("GET", `/api/${ref}/payment`, { apiKey });
        expect(response.status, `${mode} ${ref}`).toBe(200);
        const [notification] = await db().notification.findMany({
          where: { kind: "payment_details", body: { contains: String(response.body.responseid) } },
        });
        expect(notification, `${mode} ${ref}`).toMatchObject({ paymentId, mode });
        expect(JSON.parse(notification!.body)).toMatchObject({ paymentid: paymentId, mode });
      }
    }
  });

  it("a session, its request-log row and an idempotency key belong to the key's mode", async () => {
    const body = { merchantid: merchant.merchantId, amount: 100, currency: "DKK", merchantpaymentid: "cart9" };
    const headers = { "Idempotency-Key": "same-key-both-modes" };
    const since = new Date();
    const test = await api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, body, headers });
    const live = await api.call("POST", "/api/initdynamic", { apiKey: merchant.liveApiKey, body, headers });
    expect([test.status, live.status]).toEqual([200, 200]);
    // The same Idempotency-Key in the other mode is a new request, not a replay of test mode's answer.
    expect(live.body.sessionid).not.toBe(test.body.sessionid);
    const sessions = await db().paymentSession.findMany({
      where: { merchantId: merchant.merchantId, merchantPaymentId: "cart9" },
      select: { id: true, mode: true },
    });
    expect(Object.fromEntries(sessions.map((session) => [session.id, session.mode]))).toEqual({
      [String(test.body.sessionid)]: "test",
      [String(live.body.sessionid)]: "live",
    });
    await flushApiRequestLog();
    const logged = await db().apiRequest.findMany({
      where: { merchantId: merchant.merchantId, path: "/api/initdynamic", createdAt: { gte: since } },
      select: { mode: true },
    });
    expect(logged.map((row) => row.mode).sort()).toEqual(["live", "test"]);
  });
});

describe("live mode goes only to live accounts", () => {
  let standIn: { url: string; hits: string[]; close(): Promise<void> } | undefined;
  afterEach(async () => {
    delete process.env.CLEARHAUS_BASE_URL;
    resetConfig();
    await standIn?.close();
    standIn = undefined;
  });

  /** The acquirer's production endpoint, stood in for by a recording proxy in front of the Clearhaus sandbox. */
  async function startProductionStandIn() {
    const hits: string[] = [];
    const target = new URL(sandboxes.urls.clearhaus!);
    const server = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      hits,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  /** A cardholder payment of `mode` authorized at clearhaus with the card and its security code. */
  async function authorizeIn(mode: "test" | "live", pan: string) {
    const paymentId = await createPendingPayment(merchant.merchantId, { mode });
    await authorizePayment({ paymentId, source: { kind: "card", card: testCard(pan) }, processors: ["clearhaus"] });
    return db().payment.findUniqueOrThrow({ where: { id: paymentId } });
  }

  async function liveMit(pan: string) {
    const parent = await createTestPayment({
      merchantId: merchant.merchantId,
      mode: "live",
      status: "CAPTURED",
      captures: [500n],
      withStoredCard: { pan },
    });
    const response = await api.call("POST", "/api/mit", {
      apiKey: merchant.liveApiKey,
      body: { merchantid: merchant.merchantId, paymentid: parent.paymentId, amount: 700, currency: "DKK", paymenttype: "unscheduled" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    await harness.waitUntilIdle();
    const payment = await db().payment.findFirstOrThrow({ where: { parentPaymentId: parent.paymentId }, include: { operations: true } });
    return { payment, responseId: String(response.body.responseid) };
  }

  it("a live account calls the acquirer's production endpoint only; with it unset the call never falls back to the sandbox", async () => {
    // Unset production endpoint: the live account's call fails as unavailable; the running sandbox is never asked.
    const unset = await liveMit(REAL_LOOKING_CARD);
    expect(unset.payment.status).toBe("FAILED");
    const [attempt] = unset.payment.operations.filter((operation) => operation.type === "authorize");
    expect(attempt).toMatchObject({ acquirerAccountId: liveAccountId, processor: "clearhaus" });
    expect(attempt!.errorMessage).toMatch(/live endpoint \(CLEARHAUS_BASE_URL\) is not configured/);

    standIn = await startProductionStandIn();
    process.env.CLEARHAUS_BASE_URL = standIn.url;
    resetConfig();
    // A cardholder payment (an MIT at Clearhaus would need an earlier approval of the series there).
    const approved = await authorizeIn("live", REAL_LOOKING_CARD);
    expect(approved).toMatchObject({ mode: "live", status: "AUTHORIZED", acquirerAccountId: liveAccountId });
    expect(standIn.hits.length).toBeGreaterThan(0);

    // Test mode meanwhile still goes to the built-in sandbox, not to the production endpoint.
    const hits = standIn.hits.length;
    expect(await authorizeIn("test", "4111111111111111")).toMatchObject({ mode: "test", status: "AUTHORIZED" });
    expect(standIn.hits.length).toBe(hits);
  });

  it("a live payment with a published test card is declined with a clear reason before any acquirer call, and notified in live mode", async () => {
    standIn = await startProductionStandIn();
    process.env.CLEARHAUS_BASE_URL = standIn.url;
    resetConfig();
    const before = receiver.received.length;
    const { payment, responseId } = await liveMit("4111111111111111");
    expect(payment.status).toBe("DECLINED");
    expect(payment.operations.filter((operation) => operation.type === "authorize")).toEqual([
      expect.objectContaining({ status: "declined", processor: null, errorMessage: expect.stringMatching(/test card/i) }),
    ]);
    expect(standIn.hits).toEqual([]);
    await receiver.waitFor(before + 1);
    const notification = receiver.received.find((request) => request.body.responseid === responseId)!;
    expect(notification.body).toMatchObject({ status: "declined", mode: "live" });
    expect(notification.headers["x-cps-notification-mode"]).toBe("live");
  });
});
