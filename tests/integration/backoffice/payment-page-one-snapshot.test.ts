// The payment page reads a payment and its operations in one snapshot. Prisma reads the payment and
// each relation in a statement of its own; a follow-up's answer committed between two of them (the
// refund approved and the payment's amounts updated together) showed the refund approved with the
// amounts from before it, and the page stopped following the payment since nothing was pending
// (e2e N13 failed so on the embedded database, where a one-statement record fits between them).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { getPaymentDetailOrThrow } from "@/lib/backoffice/queries/get-payment-detail";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

const database = useTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
});

describe("the payment page's read", () => {
  let other: pg.Client | undefined;
  afterAll(async () => {
    await other?.end().catch(() => undefined);
  });

  // Two sessions at once: PostgreSQL only (the embedded database serves one session; CI runs this
  // suite on PostgreSQL).
  it.skipIf(defaultEngine() !== "postgres")(
    "shows a refund answered between its statements either pending with the old amounts or approved with the new ones",
    async () => {
      const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1000n, processor: "clearhaus" });
      await db().operation.create({
        data: { id: newId(), paymentId, type: "capture", amount: 1000n, currency: "DKK", status: "approved", responseId: newId(), completedAt: new Date() },
      });
      await db().payment.update({ where: { id: paymentId }, data: { capturedAmount: 1000n, balance: 1000n, status: "CAPTURED" } });
      const refund = newId();
      await db().operation.create({
        data: { id: refund, paymentId, type: "refund", amount: 400n, currency: "DKK", status: "pending", responseId: newId(), notificationUrl: "http://127.0.0.1:9/notify" },
      });

      // The operations' statement waits behind a lock taken first; the payment's is not held up.
      other = new pg.Client({ connectionString: database.current().url });
      await other.connect();
      await other.query("BEGIN");
      await other.query(`LOCK TABLE "Operation" IN ACCESS EXCLUSIVE MODE`);
      const reading = getPaymentDetailOrThrow({ merchantId: merchant.merchantId, mode: "test", paymentId });
      await eventually(async () => {
        const waiting = await db().$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS "n" FROM pg_stat_activity WHERE "wait_event_type" = 'Lock' AND "query" LIKE '%"Operation"%' AND "pid" <> pg_backend_pid()`;
        return Number(waiting[0]!.n) === 1;
      }, { what: "the operations' read waiting for the lock" });
      // The processor's answer is recorded meanwhile, as the record does it: both rows in one commit.
      await other.query(`UPDATE "Operation" SET "status" = 'approved', "completedAt" = now() WHERE "id" = $1`, [refund]);
      await other.query(`UPDATE "Payment" SET "refundedAmount" = 400, "balance" = 600, "status" = 'REFUNDED' WHERE "id" = $1`, [paymentId]);
      await other.query("COMMIT");

      const payment = await reading;
      const shown = payment.operations.find((operation) => operation.id === refund)!;
      // Read in statements with snapshots of their own: approved, with 0 refunded.
      expect({ refund: shown.status, refunded: payment.refundedAmount, status: payment.status }).toEqual({
        refund: "pending",
        refunded: 0n,
        status: "CAPTURED",
      });
      // The next read (the page's next refresh, since a refund was shown pending) sees the answer.
      const next = await getPaymentDetailOrThrow({ merchantId: merchant.merchantId, mode: "test", paymentId });
      expect({ refund: next.operations.find((operation) => operation.id === refund)!.status, refunded: next.refundedAmount }).toEqual({
        refund: "approved",
        refunded: 400n,
      });
    },
  );
});
