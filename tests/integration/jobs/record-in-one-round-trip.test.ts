// A follow-up's answer is recorded in one round trip (cps_record_follow_up, decision 0195): the
// tests show that it keeps what the transaction of separate statements guaranteed. The amounts are
// summed after the payment's lock is granted (an operation another transaction approved while this
// one waited is counted), a late answer writes nothing, a capture with refunds waiting for it wakes
// them, and one call writes the answer, the amounts and the outbox row, or none of them.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { recordFollowUpResultAndNotification } from "@/lib/payments/record-follow-up-result";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
});

const approved = { status: "approved" as const, responsecode: "00", authorizationcode: "A1B2C3", processorReference: "ref-1" };

async function pendingOperation(paymentId: string, type: "capture" | "refund" | "void", amount: bigint, extra: { waitingSince?: Date } = {}) {
  const id = newId();
  await db().operation.create({
    data: { id, paymentId, type, amount, currency: "DKK", status: "pending", responseId: newId(), notificationUrl: "http://127.0.0.1:9/notify", ...extra },
  });
  return id;
}

async function authorizedPayment() {
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1000n, processor: "clearhaus" });
  return paymentId;
}

describe("a follow-up's answer recorded in one round trip", () => {
  let other: pg.Client | undefined;
  afterAll(async () => {
    await other?.end().catch(() => undefined);
  });

  // Two connections holding transactions at once: PostgreSQL only (the embedded database serves one
  // session; CI runs this suite on PostgreSQL).
  it.skipIf(defaultEngine() !== "postgres")(
    "sums an operation another transaction approved while the record waited for the payment's lock",
    async () => {
      const paymentId = await authorizedPayment();
      const first = await pendingOperation(paymentId, "capture", 300n);
      const second = await pendingOperation(paymentId, "capture", 200n);
      other = new pg.Client({ connectionString: database.current().url });
      await other.connect();
      // Another recording of this payment holds its lock and approves its capture, without summing.
      await other.query("BEGIN");
      await other.query(`SELECT 1 FROM "Payment" WHERE "id" = $1 FOR UPDATE`, [paymentId]);
      await other.query(`UPDATE "Operation" SET "status" = 'approved' WHERE "id" = $1`, [second]);
      const recording = recordFollowUpResultAndNotification({ operationId: first, result: approved, processor: "clearhaus" });
      // The record waits for the lock (its statement started before the other transaction commits).
      await new Promise((resolve) => setTimeout(resolve, 300));
      const waiting = await db().$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS "n" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "query" LIKE '%cps_record_follow_up%'`;
      expect(Number(waiting[0]!.n)).toBe(1);
      await other.query("COMMIT");
      expect((await recording).recorded).toBe(true);
      const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
      // With the sums taken in the statement's first snapshot, this would be 300.
      expect(payment).toMatchObject({ capturedAmount: 500n, balance: 500n, status: "CAPTURED" });
    },
  );

  it("writes nothing for an operation no longer pending, and answers that it did not record", async () => {
    const paymentId = await authorizedPayment();
    const capture = await pendingOperation(paymentId, "capture", 400n);
    expect((await recordFollowUpResultAndNotification({ operationId: capture, result: approved, processor: "clearhaus" })).recorded).toBe(true);
    const declined = { status: "declined" as const, responsecode: "05", processorReference: "ref-2", message: "declined later" };
    const again = await recordFollowUpResultAndNotification({ operationId: capture, result: declined, processor: "clearhaus" });
    expect(again).toEqual({ recorded: false, notificationId: null });
    expect(await db().operation.findUniqueOrThrow({ where: { id: capture } })).toMatchObject({ status: "approved", responseCode: "00" });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).capturedAmount).toBe(400n);
    expect(await db().notification.count({ where: { paymentId, copyOfId: null } })).toBe(1);
  });

  it("records a capture with refunds waiting for it in a transaction that wakes them, with its notification", async () => {
    const paymentId = await authorizedPayment();
    const capture = await pendingOperation(paymentId, "capture", 400n);
    const refund = await pendingOperation(paymentId, "refund", 100n, { waitingSince: new Date() });
    const record = await recordFollowUpResultAndNotification({ operationId: capture, result: approved, processor: "clearhaus" });
    expect(record).toEqual({ recorded: true, notificationId: `msg_operation_${capture}` });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).capturedAmount).toBe(400n);
    // The refund's own event, under the id of its wake-up by this capture, stored in that transaction.
    const woken = await db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS "n" FROM "InngestEvent" WHERE "idempotencyKey" = ${`follow-up-${refund}-after-${capture}`}`;
    expect(Number(woken[0]!.n)).toBe(1);
  });

  it("reads the operation's facts itself when the caller has none, and refuses an operation that does not exist", async () => {
    await expect(recordFollowUpResultAndNotification({ operationId: "no-such-operation", result: approved, processor: "clearhaus" })).rejects.toThrow(
      /operation no-such-operation does not exist/,
    );
  });
});
