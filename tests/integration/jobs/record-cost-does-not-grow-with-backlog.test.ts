// A follow-up's record costs the same whatever the backlog of pending work (decision 0237). Its
// lookups of one payment's (or one notification's) pending rows went through the status indexes
// ("Operation"(status, outcomeUnknownSince), "Notification"(status, nextAttemptAt)) whenever the
// statistics had been taken while almost nothing was pending, which is most of the time: the planner
// then expects under one pending row and prefers that index even to a primary key. Each lookup then
// read every pending row of every merchant, so the record of one capture cost more the more captures
// and notifications were waiting (a bench run at 50 connections: about 300 rows read per record),
// and a worker falling behind fell behind faster. Read here as the rows its index scans fetched,
// with 3,000 pending captures and 3,000 pending notifications of another payment.
import { beforeAll, describe, expect, it } from "vitest";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { FOLLOW_UP_TYPES } from "@/lib/payments/follow-ups/kinds";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const BACKLOG = 3_000;
/** A record fetches its own rows (the operation, the payment's operations, the new notification); a scan of the backlog thousands. */
const MAX_ROWS_FETCHED = 50;

let merchant: TestMerchant;
let busyPayment: string;
beforeAll(async () => {
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
  busyPayment = (await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000_000n })).paymentId;
  // Statistics taken while nothing is pending, as they usually are, then the backlog arrives.
  await db().$executeRawUnsafe(`ANALYZE "Operation"`);
  await db().$executeRawUnsafe(`ANALYZE "Notification"`);
  await db().$executeRaw`
    INSERT INTO "Operation" ("id", "paymentId", "type", "amount", "currency", "status", "responseId", "notificationUrl")
    SELECT 'backlog-op-' || n, ${busyPayment}, 'capture', 1, 'DKK', 'pending', 'backlog-r-' || n, 'http://127.0.0.1:9/notify'
    FROM generate_series(1, ${BACKLOG}::int) AS n`;
  await db().$executeRaw`
    INSERT INTO "Notification" ("id", "merchantId", "mode", "paymentId", "kind", "url", "body", "nextAttemptAt")
    SELECT 'backlog-n-' || n, ${merchant.merchantId}, 'test', ${busyPayment}, 'capture', 'http://127.0.0.1:9/notify', '{}', now()
    FROM generate_series(1, ${BACKLOG}::int) AS n`;
});

/**
 * The rows of "Operation" and "Notification" that index scans fetched while `work` ran, in this
 * transaction (pg_stat_xact_user_tables counts the transaction's own scans before they are flushed),
 * nested statements of a PL/pgSQL function included. A lookup that reads the backlog fetches each of
 * its rows before its filter throws them away.
 */
async function rowsFetchedBy(tx: Tx, work: () => Promise<unknown>): Promise<number> {
  const fetched = async () => {
    const rows = await tx.$queryRaw<{ n: bigint }[]>`
      SELECT COALESCE(SUM("idx_tup_fetch"), 0)::bigint AS "n" FROM pg_stat_xact_user_tables WHERE "relname" IN ('Operation', 'Notification')`;
    return Number(rows[0]!.n);
  };
  const before = await fetched();
  await work();
  return (await fetched()) - before;
}

async function pendingCapture(): Promise<{ paymentId: string; operationId: string }> {
  const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1000n });
  const operationId = newId();
  await db().operation.create({
    data: { id: operationId, paymentId, type: "capture", amount: 400n, currency: "DKK", status: "pending", responseId: newId(), notificationUrl: "http://127.0.0.1:9/notify" },
  });
  return { paymentId, operationId };
}

describe("a follow-up's record does not read the backlog (decision 0237)", () => {
  it("recording a capture's answer with its notification and first attempt fetches a bounded number of rows beside 3,000 pending captures and notifications", async () => {
    // Several records on one connection: PL/pgSQL plans its statements anew for the first five calls
    // and may keep a generic plan after that; every one of them must stay off the backlog.
    for (let call = 0; call < 8; call++) {
      const { paymentId, operationId } = await pendingCapture();
      const fetched = await db().$transaction(async (tx) =>
        rowsFetchedBy(tx, () =>
          tx.$queryRawUnsafe(
            `SELECT * FROM "cps_record_follow_up"($1, 'approved'::"OperationStatus", '00', 'A1B2C3', 'ref-1', NULL, now()::timestamp(3),
              'clearhaus'::"Processor", $2::text[], now()::timestamp(3), true, $3, 'capture'::"NotificationKind", 'http://127.0.0.1:9/notify', '{}')`,
            operationId,
            FOLLOW_UP_TYPES,
            `msg_${newId()}`,
          ),
        ),
      );
      expect({ call, fetched: fetched <= MAX_ROWS_FETCHED ? "bounded" : fetched }).toEqual({ call, fetched: "bounded" });
      // It did record: the answer, the amounts and the notification.
      expect(await db().operation.findUniqueOrThrow({ where: { id: operationId } })).toMatchObject({ status: "approved" });
      expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).capturedAmount).toBe(400n);
      expect(await db().notification.count({ where: { paymentId } })).toBe(1);
    }
  });
});
