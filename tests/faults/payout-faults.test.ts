// Payouts under acquirer faults and a crash: a 5xx or a time-out never sends the payout to the next
// processor (it may have been paid); it is looked up under its own reference, answered or settled
// by the reconciliation, and the money leaves exactly once.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createCapturedCardPayment, createTestMerchant } from "@/tests/helpers/merchant-factories";
import { armFaultPoint } from "@/lib/faults/fault-point";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { reconcileIndeterminateOperations } from "@/lib/payments/reconcile-indeterminate-operations";
import { armAcquirerFault, type AcquirerFaultMode } from "@/lib/sandboxes/acquirers/faults";
import {
  PAYOUT_PROCESSORS,
  PROCESSORS,
  afterGrace,
  afterNotFoundClose,
  payoutOperation,
  requestPayout as requestPayoutAt,
  sourcePayment as sourcePaymentAt,
  acquirerTransactionsFor,
  notificationsFor,
  setUpFaultWorld,
  uniqueAmount,
  waitForNotification,
  type FaultWorld,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

const sourcePayment = (processor: (typeof PROCESSORS)[number]) => sourcePaymentAt(world, processor);
const requestPayout = (paymentId: string, amount: number) => requestPayoutAt(world, paymentId, amount);

describe.each(PAYOUT_PROCESSORS)("at %s", (processor) => {
  for (const mode of ["502_after_acting", "answer_lost_after_acting"] as AcquirerFaultMode[]) {
    it(`${mode}: the payout is looked up, not sent to the next processor, and paid once`, async () => {
      const source = await sourcePayment(processor);
      const amount = uniqueAmount();
      armAcquirerFault({ mode, processor, operation: "payout", amount });
      const response = await requestPayout(source.paymentId, amount);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: "approved", processor });
      const paid = acquirerTransactionsFor(world, amount, "payout");
      expect(paid.map((entry) => entry.processor)).toEqual([processor]);
      const { payment, operations } = await payoutOperation(source.paymentId);
      expect(operations).toHaveLength(1);
      expect(payment).toMatchObject({ status: "CAPTURED", balance: BigInt(-amount) });
      const notification = await waitForNotification(world, String(response.body.responseid));
      expect(notification.body).toMatchObject({ status: "approved" });
      expect(notificationsFor(world, String(response.body.responseid))).toHaveLength(1);
    });
  }

  it("answer lost and the look-up unanswered: answered pending (not failed) without routing on, then settled approved by the reconciliation", async () => {
    const source = await sourcePayment(processor);
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "answer_lost_after_acting", processor, operation: "payout", amount });
    armAcquirerFault({ mode: "hang_before_acting", processor, operation: "lookup" });
    const response = await requestPayout(source.paymentId, amount);
    expect(response.body).toMatchObject({ status: "pending", responsecode: "68", authorizationcode: "", processor });
    const pending = await payoutOperation(source.paymentId);
    expect(pending.payment.status).toBe("PENDING");
    expect(pending.operations).toMatchObject([{ status: "pending" }]);
    expect(notificationsFor(world, String(response.body.responseid))).toHaveLength(0);
    await reconcileIndeterminateOperations({ olderThanMs: 0 });
    const notification = await waitForNotification(world, String(response.body.responseid));
    expect(notification.body).toMatchObject({ status: "approved" });
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(1);
    const settled = await payoutOperation(source.paymentId);
    expect(settled.payment).toMatchObject({ status: "CAPTURED", balance: BigInt(-amount) });
  });

  it("hang before acting: not found, pending through the grace period and the day after, then failed; nothing was paid anywhere", async () => {
    const source = await sourcePayment(processor);
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "hang_before_acting", processor, operation: "payout", amount });
    const response = await requestPayout(source.paymentId, amount);
    expect(response.body).toMatchObject({ processor, status: "pending" });
    expect((await payoutOperation(source.paymentId)).payment.status).toBe("PENDING");
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
    expect((await payoutOperation(source.paymentId)).payment.status).toBe("PENDING");
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterNotFoundClose() });
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(0);
    expect((await payoutOperation(source.paymentId)).payment.status).toBe("FAILED");
    expect((await waitForNotification(world, String(response.body.responseid))).body).toMatchObject({ status: "failed" });
  });
});

describe("the final result reaches the merchant", () => {
  it("an unknown payout without a notificationurl: answered pending, its result notified to the merchant's default address", async () => {
    const source = await sourcePayment("finaro");
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "answer_lost_after_acting", processor: "finaro", operation: "payout", amount });
    armAcquirerFault({ mode: "hang_before_acting", processor: "finaro", operation: "lookup" });
    const response = await world.api.call("POST", `/api/${source.paymentId}/payout`, {
      apiKey: world.merchant.apiKey,
      body: { amount, currency: "DKK" },
    });
    expect(response.body).toMatchObject({ status: "pending", processor: "finaro" });
    await reconcileIndeterminateOperations({ olderThanMs: 0 });
    const notification = await waitForNotification(world, String(response.body.responseid));
    expect(notification.path).toBe("/notify"); // the merchant's default address (the receiver's own)
    expect(notification.body).toMatchObject({ status: "approved" });
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(1);
  });

  it("a payout whose result could reach nobody (no notificationurl, no configured address) is refused up front; nothing paid", async () => {
    const bare = await createTestMerchant({});
    const source = await createCapturedCardPayment(bare.merchantId, "finaro");
    const amount = uniqueAmount();
    const response = await world.api.call("POST", `/api/${source.paymentId}/payout`, {
      apiKey: bare.apiKey,
      body: { amount, currency: "DKK" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^notificationurl: /) });
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(0);
    expect(await db().payment.count({ where: { parentPaymentId: source.paymentId } })).toBe(0);
  });
});

describe("crash", () => {
  it("the service fails between the acquirer's answer and its record: no answer, then the reconciliation settles it once", async () => {
    const source = await sourcePayment("finaro");
    const amount = uniqueAmount();
    armFaultPoint("payout.after-call");
    const response = await requestPayout(source.paymentId, amount);
    expect(response.status).toBe(500);
    const { operations } = await payoutOperation(source.paymentId);
    expect(operations).toMatchObject([{ status: "pending" }]);
    expect(await reconcileIndeterminateOperations({ olderThanMs: 0 })).toMatchObject([
      { operationId: operations[0]!.id, result: "approved" },
    ]);
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(1);
    const notification = await waitForNotification(world, operations[0]!.responseId!);
    expect(notification.body).toMatchObject({ status: "approved" });
  });
});

describe("repeats without an Idempotency-Key (L3)", () => {
  it("a payout with a newmerchantpaymentid is made once: a repeat with the same reference is refused, also when both arrive at once", async () => {
    const source = await sourcePayment("finaro");
    const amount = uniqueAmount();
    const reference = `payout${amount}`;
    const send = () => requestPayoutAt(world, source.paymentId, amount, { newmerchantpaymentid: reference });
    const [first, second] = await Promise.all([send(), send()]);
    const answers = [first, second].map((response) => response.status).sort();
    expect(answers).toEqual([200, 400]);
    const refused = first.status === 400 ? first : second;
    expect(refused.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: "newmerchantpaymentid: is already used by another payment of this merchant" });
    expect((await send()).status).toBe(400);
    expect(acquirerTransactionsFor(world, amount, "payout")).toHaveLength(1);
    const payout = await db().payment.findFirstOrThrow({ where: { merchantPaymentId: reference } });
    expect(payout).toMatchObject({ paymentType: "payout", status: "CAPTURED" });
  });
});
