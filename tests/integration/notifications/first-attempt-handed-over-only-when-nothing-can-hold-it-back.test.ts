// A follow-up's record hands its notification's first attempt the read that attempt would make
// (decision 0215): one statement fewer per capture. It may do so only when the ordering rule
// (lib/notifications/hold-back.ts) cannot hold the notification back, because the attempt then
// sends without asking the rule. These tests hold the record to that: in every case where the rule
// holds the new notification back, the record hands nothing over (and the attempt's own read finds
// it held back); where it hands something over, it is exactly the attempt's own read.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { createWebhookEndpoint } from "@/lib/notifications/webhook-endpoints";
import { recordFollowUpResultAndNotification } from "@/lib/payments/record-follow-up-result";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

// Nothing listens there: an attempt that is sent fails to connect, one held back sends nothing.
const SHOP = "http://127.0.0.1:9/notify";
const OTHER_HOST = "http://127.0.0.2:9/notify";
const approved = { status: "approved" as const, responsecode: "00", authorizationcode: "A1B2C3", processorReference: "ref-1" };

async function capturePending(merchantId: string, paymentId: string, url = SHOP) {
  const id = newId();
  await db().operation.create({
    data: { id, paymentId, type: "capture", amount: 100n, currency: "DKK", status: "pending", responseId: newId(), notificationUrl: url },
  });
  return id;
}

async function pendingNotification(merchantId: string, paymentId: string, kind: "completion" | "operation" | "test" | "payment_details", url = SHOP) {
  await db().notification.create({
    data: { id: newId(), merchantId, mode: "test", paymentId, kind, url, body: "{}", createdAt: new Date(Date.now() - 60_000) },
  });
}

async function openWindow(merchantId: string, paymentId: string) {
  await db().paymentSession.create({
    data: { id: newId(), merchantId, mode: "test", amount: 1000n, currency: "DKK", expiresAt: new Date(Date.now() + 60_000), paymentId, status: "OPEN" },
  });
}

/** The record of an approved capture of a new payment, after `before` set the payment's scene. */
async function recordAfter(before: (merchantId: string, paymentId: string) => Promise<void>, url = SHOP) {
  const merchant = await createTestMerchant({ defaultNotificationUrl: SHOP });
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
  await before(merchant.merchantId, paymentId);
  const operationId = await capturePending(merchant.merchantId, paymentId, url);
  const record = await recordFollowUpResultAndNotification({ operationId, result: approved, processor: "clearhaus" });
  expect(record.recorded).toBe(true);
  return { merchant, paymentId, record, notificationId: record.notificationId! };
}

describe("a follow-up's record hands over its notification's first read only when nothing can hold it back", () => {
  const heldBack: Array<[string, (merchantId: string, paymentId: string) => Promise<void>]> = [
    ["the payment's completion to the merchant's address is still pending", (m, p) => pendingNotification(m, p, "completion")],
    ["the payment's completion, pending at another host, still comes first", (m, p) => pendingNotification(m, p, "completion", OTHER_HOST)],
    ["an earlier result of the payment to the same receiver is still pending", (m, p) => pendingNotification(m, p, "operation")],
    ["the payment's window is still open", (m, p) => openWindow(m, p)],
  ];

  for (const [scene, before] of heldBack) {
    it(`hands nothing over when ${scene}, where the rule holds it back`, async () => {
      const { record, notificationId } = await recordAfter(before);
      expect(record.firstAttempt).toBeUndefined();
      // The attempt's own read asks the rule, which holds it back: nothing is sent or counted.
      const attempt = await deliverNotificationAttempt({ notificationId, attemptNumber: 1, timeoutMs: 1000 });
      expect(attempt).toMatchObject({ delivered: false, deferred: true });
      expect(await db().notificationAttempt.count({ where: { notificationId } })).toBe(0);
    });
  }

  it("hands nothing over when an earlier notification of the payment is pending elsewhere, although the rule would let it go (the attempt reads and decides)", async () => {
    const { record, notificationId } = await recordAfter((m, p) => pendingNotification(m, p, "operation", OTHER_HOST));
    expect(record.firstAttempt).toBeUndefined();
    const attempt = await deliverNotificationAttempt({ notificationId, attemptNumber: 1, timeoutMs: 1000 });
    expect(attempt.deferred).toBeUndefined();
    expect(await db().notificationAttempt.count({ where: { notificationId } })).toBe(1);
  });

  it("hands over, with a test notification or payment details of the payment pending (the rule orders neither)", async () => {
    const { record } = await recordAfter(async (m, p) => {
      await pendingNotification(m, p, "test");
      await pendingNotification(m, p, "payment_details");
    });
    expect(record.firstAttempt).toBeDefined();
  });

  it("hands over exactly what the attempt reads: the stored body, the mode's signing secrets newest first, and its endpoints' copies", async () => {
    let endpointId = "";
    const { merchant, record, notificationId } = await recordAfter(async (merchantId) => {
      const created = await db().$transaction((tx) =>
        createWebhookEndpoint({ merchantId, input: { url: "https://hooks.example/one", mode: "test", kinds: [] }, tx }),
      );
      endpointId = created.endpoint.id;
    });
    const stored = await db().notification.findUniqueOrThrow({ where: { id: notificationId } });
    const secrets = await db().signingSecret.findMany({
      where: { merchantId: merchant.merchantId, mode: "test", endpointId: null },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const copies = await db().notification.findMany({ where: { copyOfId: notificationId }, select: { id: true, endpointId: true } });
    expect(copies).toEqual([{ id: `${notificationId}_${endpointId}`, endpointId }]);
    expect(record.firstAttempt).toEqual({
      id: notificationId,
      merchantId: merchant.merchantId,
      mode: "test",
      kind: stored.kind,
      url: SHOP,
      body: stored.body,
      status: "pending",
      endpointId: null,
      secrets: secrets.map((secret) => ({ id: secret.id, sealed: secret.sealed })),
      copies: copies.map((copy) => copy.id),
      attemptCount: 0,
      heldBack: false,
    });
    expect(secrets.length).toBeGreaterThan(0);
  });

  it("hands nothing over for a notification stored before (a retried record keeps the first row, which may have been attempted)", async () => {
    const merchant = await createTestMerchant({ defaultNotificationUrl: SHOP });
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const operationId = await capturePending(merchant.merchantId, paymentId);
    const first = await recordFollowUpResultAndNotification({ operationId, result: approved, processor: "clearhaus" });
    expect(first.firstAttempt).toBeDefined();
    await deliverNotificationAttempt({ notificationId: first.notificationId!, attemptNumber: 1, timeoutMs: 1000, read: first.firstAttempt! });
    // Answered again (a late answer): nothing is recorded, and nothing handed over.
    const again = await recordFollowUpResultAndNotification({ operationId, result: approved, processor: "clearhaus" });
    expect(again).toEqual({ recorded: false, notificationId: null });
  });

  it("refuses a read of another notification", async () => {
    const { record } = await recordAfter(async () => undefined);
    await expect(deliverNotificationAttempt({ notificationId: newId(), attemptNumber: 1, read: record.firstAttempt! })).rejects.toThrow(/not/);
  });
});
