// A payment and its operations are read in one snapshot, by the back office's payment page and by the
// merchant API's payment record (GET /api/{paymentid}/payment). Prisma reads the payment and each
// relation in a statement of its own; a follow-up's answer committed between two of them (the refund
// approved and the payment's amounts updated together) showed the refund approved beside the amounts
// from before it. The page then stopped following the payment since nothing was pending (e2e N13
// failed so on the embedded database, where a one-statement record fits between them); a merchant's
// record had a balance that its own operations contradicted.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { getPaymentDetailOrThrow } from "@/lib/backoffice/queries/get-payment-detail";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

const database = useTestDatabase();

const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
const api = useMerchantApi();

interface Seen {
  refund: string | undefined;
  refunded: bigint;
}

/**
 * A captured payment with a refund pending; `read` starts while another session holds a lock that
 * the read's operations statement waits for (its payment statement does not), and the refund's
 * answer is committed, as the record commits it, before that lock is let go.
 */
async function refundAnsweredDuringTheRead(read: (payment: { paymentId: string; order: string; refundId: string }) => Promise<Seen>) {
  const order = `snap${Date.now()}`;
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId: order, status: "CAPTURED", captures: [1000n] });
  const refundId = newId();
  await db().operation.create({
    data: { id: refundId, paymentId, type: "refund", amount: 400n, currency: "DKK", status: "pending", responseId: newId(), notificationUrl: "http://127.0.0.1:9/notify" },
  });
  const other = new pg.Client({ connectionString: database.current().url });
  await other.connect();
  try {
    await other.query("BEGIN");
    await other.query(`LOCK TABLE "Operation" IN ACCESS EXCLUSIVE MODE`);
    const reading = read({ paymentId, order, refundId });
    await eventually(
      async () => {
        const waiting = await db().$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS "n" FROM pg_stat_activity
          WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "query" LIKE '%"Operation"%' AND "pid" <> pg_backend_pid()`;
        return Number(waiting[0]!.n) === 1;
      },
      { what: "the read's operations statement waiting for the lock" },
    );
    await other.query(`UPDATE "Operation" SET "status" = 'approved', "completedAt" = now() WHERE "id" = $1`, [refundId]);
    await other.query(`UPDATE "Payment" SET "refundedAmount" = 400, "balance" = 600, "status" = 'REFUNDED' WHERE "id" = $1`, [paymentId]);
    await other.query("COMMIT");
    const during = await reading;
    const after = await read({ paymentId, order, refundId });
    return { during, after };
  } finally {
    await other.end().catch(() => undefined);
  }
}

// Two sessions at once: PostgreSQL only (the embedded database serves one session; CI runs this
// suite on PostgreSQL).
describe.skipIf(defaultEngine() !== "postgres")("a payment read while a refund's answer is recorded", () => {
  it("the back office's payment page shows the refund pending with the old amounts, then approved with the new ones", async () => {
    const { during, after } = await refundAnsweredDuringTheRead(async ({ paymentId, refundId }) => {
      const payment = await getPaymentDetailOrThrow({ merchantId: merchant.merchantId, mode: "test", paymentId });
      return { refund: payment.operations.find((operation) => operation.id === refundId)?.status, refunded: payment.refundedAmount };
    });
    // Read in statements with snapshots of their own: approved beside 0 refunded, and no refresh.
    expect(during).toEqual({ refund: "pending", refunded: 0n });
    expect(after).toEqual({ refund: "approved", refunded: 400n });
  });

  it("the merchant API's payment record (sync=1) has a balance its operations agree with", async () => {
    const { during, after } = await refundAnsweredDuringTheRead(async ({ order, refundId }) => {
      const response = await api.call("GET", `/api/${order}/payment?sync=1`, { apiKey: merchant.apiKey });
      expect(response.status).toBe(200);
      const record = response.body as { balance: number; operations: Array<{ operationid: string; status: string }> };
      return { refund: record.operations.find((operation) => operation.operationid === refundId)?.status, refunded: 1000n - BigInt(record.balance) };
    });
    expect(during).toEqual({ refund: "pending", refunded: 0n });
    expect(after).toEqual({ refund: "approved", refunded: 400n });
  });
});
