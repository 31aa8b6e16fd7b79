// A capture, refund or void is decided on the payment's state read without a lock, and reserved
// only if that state is unchanged when the payment's lock is granted (decision 0212): what another
// request reserved or the processor answered between the read and the reservation makes the
// request be decided again on the new state, never reserved on the old one. Each case holds the
// payment's lock in a second connection while the request is under way, changes the payment as a
// concurrent request would, and commits: the request's reservation waits for that lock.
// PostgreSQL only (two sessions at once; the embedded database serves one; CI runs it on PostgreSQL).
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();
const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });

let other: pg.Client | undefined;
afterEach(async () => {
  await other?.end().catch(() => undefined);
  other = undefined;
});

/** Holds the payment's row lock in a transaction of another session, as a concurrent request does. */
async function holdPaymentLock(paymentId: string): Promise<pg.Client> {
  other = new pg.Client({ connectionString: database.current().url });
  await other.connect();
  await other.query("BEGIN");
  await other.query(`SELECT 1 FROM "Payment" WHERE "id" = $1 FOR UPDATE`, [paymentId]);
  return other;
}

/** A pending operation as a concurrent request reserves it. */
async function reserveAlongside(client: pg.Client, paymentId: string, type: "capture" | "refund" | "void", amount: bigint) {
  await client.query(
    `INSERT INTO "Operation" ("id", "paymentId", "type", "amount", "currency", "status", "responseId", "notificationUrl", "createdAt")
     VALUES ($1, $2, $3::"OperationType", $4, 'DKK', 'pending', $5, 'http://127.0.0.1:9/other', now())`,
    [newId(), paymentId, type, amount.toString(), newId()],
  );
}

/** Resolves once a statement of the service waits for a row lock (the reservation). */
async function untilWaitingForTheLock() {
  for (let i = 0; i < 100; i += 1) {
    const waiting = await db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS "n" FROM pg_stat_activity
      WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' `;
    if (Number(waiting[0]!.n) === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no request waited for the payment's lock");
}

const post = (paymentId: string, op: "capture" | "refund" | "void", body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call("POST", `/api/${paymentId}/${op}`, { apiKey: merchant.apiKey, body, headers });

async function operations(paymentId: string, type: "capture" | "refund" | "void") {
  const rows = await db().operation.findMany({ where: { paymentId, type }, orderBy: { createdAt: "asc" }, select: { amount: true, status: true } });
  return rows.map((row) => row.amount);
}

/**
 * Sends the request while another session holds the payment's lock, waits until the request waits
 * for that lock, makes `change` in the other session (as a concurrent request or answer would),
 * commits it and gives the request's answer.
 */
async function whileChanged(paymentId: string, request: () => ReturnType<typeof post>, change: (client: pg.Client) => Promise<unknown>) {
  const client = await holdPaymentLock(paymentId);
  const answer = request();
  await untilWaitingForTheLock();
  await change(client);
  await client.query("COMMIT");
  return answer;
}

describe.skipIf(defaultEngine() !== "postgres")("a follow-up reserved only on the state it was decided on", () => {
  it("refuses a capture that a capture reserved while it waited would push over the authorized amount", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const answer = await whileChanged(paymentId, () => post(paymentId, "capture", { amount: 6000 }), (client) => reserveAlongside(client, paymentId, "capture", 6000n));
    expect(answer.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "amount: exceeds the authorized amount left to capture (4000)" });
    expect(await operations(paymentId, "capture")).toEqual([6000n]);
  });

  it("captures what is left after a capture reserved while it waited, when the amount is omitted", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const answer = await whileChanged(paymentId, () => post(paymentId, "capture", {}), (client) => reserveAlongside(client, paymentId, "capture", 4000n));
    expect(answer.status).toBe(200);
    expect(await operations(paymentId, "capture")).toEqual([4000n, 6000n]);
  });

  it("refuses a capture once a void was reserved while it waited", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const answer = await whileChanged(paymentId, () => post(paymentId, "capture", { amount: 1000 }), (client) => reserveAlongside(client, paymentId, "void", 10_000n));
    expect(answer.status).toBe(400);
    expect(await operations(paymentId, "capture")).toEqual([]);
  });

  it("refuses a refund over what is captured once a refund was reserved while it waited, with an Idempotency-Key too", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n, status: "CAPTURED", captures: [10_000n] });
    const answer = await whileChanged(
      paymentId,
      () => post(paymentId, "refund", { amount: 7000 }, { "Idempotency-Key": `refund-${newId()}` }),
      (client) => reserveAlongside(client, paymentId, "refund", 5000n),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errordescription).toMatch(/^amount: /);
    expect(await operations(paymentId, "refund")).toEqual([5000n]);
  });

  it("reserves a capture whose payment changed in nothing it was decided on, with one outbox event", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const answer = await whileChanged(
      paymentId,
      () => post(paymentId, "capture", { amount: 2500 }),
      (client) => client.query(`UPDATE "Payment" SET "reference" = 'changed-elsewhere' WHERE "id" = $1`, [paymentId]),
    );
    expect(answer.status).toBe(200);
    const [operation] = await db().operation.findMany({ where: { paymentId, type: "capture" } });
    expect(operation).toMatchObject({ amount: 2500n, status: "pending" });
    const events = await db().inngestEvent.findMany({ where: { idempotencyKey: `follow-up-${operation!.id}` } });
    expect(events).toHaveLength(1);
  });
});
