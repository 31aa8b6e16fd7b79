// POST /api/{paymentid}/capture, /refund and /void over real HTTP: the immediate answer, the amount
// rules (partial, multiple, over-amount, omitted amount), paymentid or merchantpaymentid in the
// path, cross-merchant access, concurrent requests and idempotent repeats.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });
const stranger = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/stranger" });

type Op = "capture" | "refund" | "void";
const post = (
  paymentRef: string,
  op: Op,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  apiKey = merchant.apiKey,
) => api.call("POST", `/api/${paymentRef}/${op}`, { apiKey, body, headers });

async function operationsOf(paymentId: string, type: Op) {
  return db().operation.findMany({ where: { paymentId, type }, orderBy: { createdAt: "asc" } });
}

/** A payment of `amount` with these approved captures (CAPTURED): what refunds start from. */
function capturedPayment(amount: bigint, captures: bigint[]) {
  return createTestPayment({ merchantId: merchant.merchantId, amount, captures, status: "CAPTURED" });
}

/** Plays the processor's approval of every pending operation of the payment. */
async function approvePending(paymentId: string) {
  await db().operation.updateMany({ where: { paymentId, status: "pending" }, data: { status: "approved", responseCode: "00" } });
}

describe("capture", () => {
  it("answers a unique responseid at once and reserves the amount as a pending operation", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const response = await post(paymentId, "capture", { amount: 4000, note: "first part", tags: "shipment-1 eu" });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["responseid"]);
    expect(response.body.responseid).toMatch(/^[a-zA-Z0-9]{1,32}$/);
    const [operation] = await operationsOf(paymentId, "capture");
    expect(operation).toMatchObject({
      amount: 4000n,
      currency: "DKK",
      status: "pending",
      note: "first part",
      tags: "shipment-1 eu",
      responseId: response.body.responseid,
    });
    const event = await db().inngestEvent.findFirst({ where: { name: "payment/follow-up.requested" }, orderBy: { receivedAt: "desc" } });
    expect(JSON.stringify(event?.payload)).toContain(operation!.id);

    const second = await post(paymentId, "capture", { amount: 1000 });
    expect(second.body.responseid).not.toBe(response.body.responseid);
  });

  it("allows partial and multiple captures up to the authorized amount, and refuses more", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    expect((await post(paymentId, "capture", { amount: 6000 })).status).toBe(200);
    const over = await post(paymentId, "capture", { amount: 4001 });
    expect(over.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "amount: exceeds the authorized amount left to capture (4000)",
    });
    expect((await post(paymentId, "capture", { amount: 4000 })).status).toBe(200);
    const none = await post(paymentId, "capture", {});
    expect(none.body.errordescription).toBe("paymentid: the authorized amount is already captured in full (or being captured)");
    expect((await operationsOf(paymentId, "capture")).map((operation) => operation.amount)).toEqual([6000n, 4000n]);
  });

  it("captures the whole remaining amount when amount is omitted", async () => {
    const { paymentId } = await capturedPayment(7_500n, [2_500n]);
    expect((await post(paymentId, "capture")).status).toBe(200);
    expect((await operationsOf(paymentId, "capture")).at(-1)?.amount).toBe(5_000n);
  });

  it("releases a declined capture's reservation", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 5_000n });
    await post(paymentId, "capture", { amount: 5000 });
    expect((await post(paymentId, "capture", { amount: 1 })).status).toBe(400);
    await db().operation.updateMany({ where: { paymentId, type: "capture" }, data: { status: "declined", responseCode: "05" } });
    expect((await post(paymentId, "capture", { amount: 5000 })).status).toBe(200);
  });

  it("refuses payments that are not authorized", async () => {
    for (const status of ["PENDING", "DECLINED", "VOIDED", "TOKENIZED"] as const) {
      const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, status });
      const response = await post(paymentId, "capture", { amount: 100 });
      expect(response.body.error, status).toBe("INVALID_PARAMETER");
      expect(response.body.errordescription).toMatch(/^paymentid: /);
    }
  });
});

describe("refund", () => {
  it("refunds up to the approved captured amount, partially and several times", async () => {
    const { paymentId } = await capturedPayment(10_000n, [6_000n]);
    expect((await post(paymentId, "refund", { amount: 2000 })).status).toBe(200);
    const over = await post(paymentId, "refund", { amount: 4001 });
    expect(over.body.errordescription).toBe("amount: exceeds the captured amount left to refund (4000)");
    expect((await post(paymentId, "refund")).status).toBe(200);
    expect((await operationsOf(paymentId, "refund")).map((operation) => operation.amount)).toEqual([2000n, 4000n]);
    const none = await post(paymentId, "refund", { amount: 1 });
    expect(none.body.errordescription).toMatch(/^paymentid: the captured amount is already refunded/);
  });

  it("accepts a refund while its capture is in flight, up to what is being captured (it runs after the capture: tests/faults/chained-follow-ups.test.ts)", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 3_000n });
    await post(paymentId, "capture", { amount: 2000 });
    const over = await post(paymentId, "refund", { amount: 2001 });
    expect(over.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "amount: exceeds the captured amount left to refund (2000)" });
    expect((await post(paymentId, "refund", { amount: 1500 })).status).toBe(200);
    expect((await operationsOf(paymentId, "refund")).map((operation) => [operation.amount, operation.status])).toEqual([[1500n, "pending"]]);
  });

  it("refuses an authorized payment with no capture", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    expect((await post(paymentId, "refund", { amount: 1 })).body.errordescription).toBe(
      "paymentid: the payment cannot be refunded in its state (authorized)",
    );
  });
});

describe("void", () => {
  it("voids an authorized, uncaptured payment; amount omitted or equal to the authorization", async () => {
    const first = await createTestPayment({ merchantId: merchant.merchantId, amount: 900n });
    expect((await post(first.paymentId, "void")).status).toBe(200);
    expect((await operationsOf(first.paymentId, "void"))[0]?.amount).toBe(900n);
    const again = await post(first.paymentId, "void");
    expect(again.body.errordescription).toBe("paymentid: the payment cannot be voided in its state (authorized)");

    const second = await createTestPayment({ merchantId: merchant.merchantId, amount: 900n });
    expect((await post(second.paymentId, "void", { amount: 900 })).status).toBe(200);
    const third = await createTestPayment({ merchantId: merchant.merchantId, amount: 900n });
    const partial = await post(third.paymentId, "void", { amount: 100 });
    expect(partial.body.errordescription).toBe("amount: a void releases the whole authorization: omit amount or send 900");
  });

  it("refuses a payment with a capture, pending or approved, and a captured payment", async () => {
    const pending = await createTestPayment({ merchantId: merchant.merchantId });
    await post(pending.paymentId, "capture", { amount: 10 });
    expect((await post(pending.paymentId, "void")).body.errordescription).toBe(
      "paymentid: a capture of this payment is in progress, and a void cannot follow it: refund the payment instead (a refund waits for the capture)",
    );
    await approvePending(pending.paymentId);
    expect((await post(pending.paymentId, "void")).body.errordescription).toBe(
      "paymentid: a captured payment cannot be voided; refund it instead",
    );
    const captured = await capturedPayment(10_000n, [10_000n]);
    expect((await post(captured.paymentId, "void")).body.errordescription).toBe(
      "paymentid: the payment cannot be voided in its state (captured)",
    );
    expect(await operationsOf(captured.paymentId, "void")).toHaveLength(0);
  });

  it("names a partially refunded payment's state as the back office does, not the stored REFUNDED (newcomer review F8)", async () => {
    const partly = await createTestPayment({ merchantId: merchant.merchantId, amount: 12_500n, captures: [5_000n], refunds: [1_500n], status: "REFUNDED" });
    expect((await post(partly.paymentId, "void")).body.errordescription).toBe(
      "paymentid: the payment cannot be voided in its state (partially refunded)",
    );
    expect(await operationsOf(partly.paymentId, "void")).toHaveLength(0);
  });
});

describe("path and parameters", () => {
  it("accepts the merchantpaymentid in place of the paymentid", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, merchantPaymentId: "ord777" });
    expect((await post("ord777", "capture", { amount: 100 })).status).toBe(200);
    expect(await operationsOf(paymentId, "capture")).toHaveLength(1);
  });

  it("answers another merchant's payment exactly like one that does not exist", async () => {
    const theirs = await createTestPayment({ merchantId: stranger.merchantId, merchantPaymentId: "secret1" });
    for (const op of ["capture", "refund", "void"] as const) {
      for (const ref of [theirs.paymentId, "secret1", "nosuchpayment"]) {
        const response = await post(ref, op, { amount: 1 });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: "INVALID_PARAMETER", errordescription: "paymentid: no such payment" });
      }
    }
    expect(await db().operation.count({ where: { paymentId: theirs.paymentId, type: { not: "authorize" } } })).toBe(0);
  });

  it("validates amount, note, tags and notificationurl", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ amount: "1.00" }, /^amount: /],
      [{ amount: 0 }, /^amount: must be at least 1/],
      [{ amount: "abc" }, /^amount: /],
      [{ note: "x".repeat(1025) }, /^note: /],
      [{ tags: "two  spaces" }, /^tags: /],
      [{ tags: "bad,tag" }, /^tags: /],
      [{ notificationurl: "javascript:alert(1)" }, /^notificationurl: /],
      [{ currency: "DKK" }, /^currency: unknown parameter/],
    ];
    for (const [body, description] of cases) {
      const response = await post(paymentId, "capture", body);
      expect(response.body.error, JSON.stringify(body)).toBe("INVALID_PARAMETER");
      expect(response.body.errordescription).toMatch(description);
    }
    expect(await operationsOf(paymentId, "capture")).toHaveLength(0);
  });

  it("refuses an operation whose result could reach no address", async () => {
    const silent = await createTestMerchant();
    const { paymentId } = await createTestPayment({ merchantId: silent.merchantId });
    const response = await post(paymentId, "capture", {}, {}, silent.apiKey);
    expect(response.body.errordescription).toBe("notificationurl: is required: no notification address is configured for this merchant");
    expect((await post(paymentId, "capture", { notificationurl: "https://shop.example/n" }, {}, silent.apiKey)).status).toBe(200);
  });
});

describe("concurrency", () => {
  it("never captures more than authorized, whatever the interleaving", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const responses = await Promise.all(Array.from({ length: 12 }, () => post(paymentId, "capture", { amount: 3000 })));
    const accepted = responses.filter((response) => response.status === 200);
    expect(accepted).toHaveLength(3);
    expect(responses.filter((response) => response.status === 400).every((response) => response.body.error === "INVALID_PARAMETER")).toBe(
      true,
    );
    const total = (await operationsOf(paymentId, "capture")).reduce((sum, operation) => sum + operation.amount, 0n);
    expect(total).toBe(9000n);
  });

  it("never refunds more than captured", async () => {
    const { paymentId } = await capturedPayment(10_000n, [5_000n]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(paymentId, "refund", { amount: 2000 })));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(2);
    const total = (await operationsOf(paymentId, "refund")).reduce((sum, operation) => sum + operation.amount, 0n);
    expect(total).toBe(4000n);
  });

  it("lets only one of a concurrent void and capture through", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1_000n });
    const [voided, captured] = await Promise.all([post(paymentId, "void"), post(paymentId, "capture")]);
    expect([voided.status, captured.status].sort()).toEqual([200, 400]);
  });
});

describe("Idempotency-Key", () => {
  it("replays the first answer for a repeat and performs the operation once", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const headers = { "Idempotency-Key": "capture-order-1" };
    const first = await post(paymentId, "capture", { amount: 1000 }, headers);
    const repeat = await post(paymentId, "capture", { amount: 1000 }, headers);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(await operationsOf(paymentId, "capture")).toHaveLength(1);
  });

  it("performs concurrent duplicates once and answers them all the same", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const headers = { "Idempotency-Key": "burst-1" };
    const responses = await Promise.all(Array.from({ length: 6 }, () => post(paymentId, "capture", { amount: 1000 }, headers)));
    expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
    expect(new Set(responses.map((response) => response.body.responseid)).size).toBe(1);
    expect(await operationsOf(paymentId, "capture")).toHaveLength(1);
  });

  it("refuses a repeat with other parameters or on another endpoint", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const headers = { "Idempotency-Key": "k-params" };
    await post(paymentId, "capture", { amount: 1000 }, headers);
    const changed = await post(paymentId, "capture", { amount: 2000 }, headers);
    expect(changed.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "Idempotency-Key: was already used with other parameters or on another endpoint",
    });
    const elsewhere = await post(paymentId, "void", { amount: 1000 }, headers);
    expect(elsewhere.body.error).toBe("INVALID_PARAMETER");
    expect(await operationsOf(paymentId, "capture")).toHaveLength(1);
  });

  it("keeps keys per merchant, and lets a refused request be retried with its key", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1_000n });
    const headers = { "Idempotency-Key": "retry-after-fix" };
    const refused = await post(paymentId, "capture", { amount: 5000 }, headers);
    expect(refused.status).toBe(400);
    const fixed = await post(paymentId, "capture", { amount: 500 }, headers);
    expect(fixed.status).toBe(200);

    const theirs = await createTestPayment({ merchantId: stranger.merchantId, amount: 1_000n });
    const sameKey = await post(theirs.paymentId, "capture", { amount: 500 }, headers, stranger.apiKey);
    expect(sameKey.status).toBe(200);
    expect(sameKey.body.responseid).not.toBe(fixed.body.responseid);
  });

  it("refuses a malformed key", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    const response = await post(paymentId, "capture", {}, { "Idempotency-Key": "x".repeat(256) });
    expect(response.body.errordescription).toMatch(/^Idempotency-Key: must be 1 to 255/);
  });
});
