// One notification path: the notification of an operation's result is a row written in the same
// transaction as the result (the outbox), and a row whose event never went out (the process died
// between the commit and the send) is still delivered, by the stalled-work job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { recordFollowUpResult } from "@/lib/payments/record-follow-up-result";
import { resendStalledEvents } from "@/lib/payments/resend-stalled-events";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

let receiver: NotificationReceiver;
let merchant: TestMerchant;
beforeAll(async () => {
  receiver = await startNotificationReceiver();
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });
});
afterAll(async () => {
  await receiver?.close();
});

async function pendingCapture(amount = 400n) {
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1000n, processor: "clearhaus" });
  const operationId = newId();
  const responseId = newId();
  await db().operation.create({
    data: { id: operationId, paymentId, type: "capture", amount, currency: "DKK", status: "pending", responseId, notificationUrl: receiver.url },
  });
  return { paymentId, operationId, responseId };
}

const approved = { status: "approved" as const, responsecode: "00", authorizationcode: "A1B2C3", processorReference: "ref-1" };

describe("outbox", () => {
  it("commits a capture's result and its notification row together", async () => {
    const { paymentId, operationId, responseId } = await pendingCapture();
    expect(await recordFollowUpResult({ operationId, result: approved, processor: "clearhaus" })).toBe(true);
    const notification = await db().notification.findUniqueOrThrow({ where: { id: `msg_operation_${operationId}` } });
    expect(notification).toMatchObject({ kind: "capture", url: receiver.url, status: "pending", attemptCount: 0, paymentId });
    expect(JSON.parse(notification.body)).toMatchObject({ responseid: responseId, paymentid: paymentId, status: "approved" });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).capturedAmount).toBe(400n);
  });

  it("leaves neither the result nor a row when the notification cannot be written", async () => {
    const { paymentId, operationId } = await pendingCapture();
    // A real database failure on the notification insert, for this operation only.
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_outbox_probe() RETURNS trigger AS $$
      BEGIN
        IF NEW."id" = 'msg_operation_${operationId}' THEN RAISE EXCEPTION 'outbox insert refused'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER refuse_outbox_probe BEFORE INSERT ON "Notification" FOR EACH ROW EXECUTE FUNCTION refuse_outbox_probe()`,
    );
    try {
      await expect(recordFollowUpResult({ operationId, result: approved, processor: "clearhaus" })).rejects.toThrow();
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER refuse_outbox_probe ON "Notification"`);
    }
    expect(await db().notification.count({ where: { id: `msg_operation_${operationId}` } })).toBe(0);
    expect((await db().operation.findUniqueOrThrow({ where: { id: operationId } })).status).toBe("pending");
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).capturedAmount).toBe(0n);
  });

  it("delivers a row whose event never went out (the process died after the commit)", async () => {
    const harness: InngestHarness = await startInngestHarness({ functions: merchantApiFunctions });
    try {
      const { operationId, responseId } = await pendingCapture();
      await recordFollowUpResult({ operationId, result: approved, processor: "clearhaus" });
      // No dispatch: the process "died" here. A minute later the stalled-work job finds the row.
      const notificationId = `msg_operation_${operationId}`;
      await db().notification.update({ where: { id: notificationId }, data: { createdAt: new Date(Date.now() - 120_000) } });
      const resent = await resendStalledEvents();
      expect(resent.notificationIds).toContain(notificationId);
      const before = receiver.received.filter((request) => request.body.responseid === responseId).length;
      expect(before).toBe(0);
      await eventually(() => receiver.received.some((request) => request.body.responseid === responseId), { timeoutMs: 20_000, intervalMs: 50, onTimeout: "return" });
      expect(receiver.received.filter((request) => request.body.responseid === responseId)).toHaveLength(1);
      await harness.waitUntilIdle();
      expect((await db().notification.findUniqueOrThrow({ where: { id: notificationId } })).status).toBe("delivered");
    } finally {
      await harness.stop();
    }
  });
});
