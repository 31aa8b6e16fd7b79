// Authorizations and MITs when the service fails around the acquirer call: a retried MIT step first
// resolves the pending attempt under its original reference, so the card is held once. A crash
// before the call leaves an attempt the acquirer never saw: the look-up says so and the payment is
// routed as usual. An unknown answer is resolved at its acquirer before the routing goes on (M7).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { armFaultPoint } from "@/lib/faults/fault-point";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { reconcileTimedOutAuthorizations } from "@/lib/routing/reconcile-timed-out-authorizations";
import type { AcquirerName } from "@/lib/acquirers/names";
import { armAcquirerFault, lateActsDone, type AcquirerFaultMode } from "@/lib/sandboxes/acquirers/faults";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import {
  MIT_PROCESSORS,
  PROCESSORS,
  acquirerTransactionsFor,
  authorizedPayment,
  cardholderCard,
  asRealGateway,
  notificationsFor,
  setUpFaultWorld,
  uniqueAmount,
  waitForNotification,
  type FaultWorld,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

/** A real first payment at the processor: an MIT continues what the cardholder's payment started there. */
async function mitParent(processor: (typeof PROCESSORS)[number]) {
  return (await authorizedPayment(world, processor)).paymentId;
}

async function requestMit(processor: (typeof PROCESSORS)[number], amount: number, parentId: string) {
  const parent = { paymentId: parentId };
  const response = await world.api.call("POST", "/api/mit", {
    apiKey: world.merchant.apiKey,
    body: { merchantid: world.merchant.merchantId, paymentid: parent.paymentId, amount, currency: "DKK", paymenttype: "unscheduled", processor },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return String(response.body.responseid);
}

describe.each(MIT_PROCESSORS)("MIT at %s", (processor) => {
  for (const point of ["authorize.after-call", "authorize.before-call"] as const) {
    it(`crash at ${point}: the retried step holds the card once and notifies once`, async () => {
      const amount = uniqueAmount();
      const parentId = await mitParent(processor);
      armFaultPoint(point);
      const responseId = await requestMit(processor, amount, parentId);
      const notification = await waitForNotification(world, responseId);
      expect(notification.body).toMatchObject({ status: "approved", processor });
      const held = acquirerTransactionsFor(world, amount).filter((entry) => entry.transaction.approved && !entry.transaction.voided);
      expect(held.map((entry) => entry.processor)).toEqual([processor]);
      const payment = await db().payment.findUniqueOrThrow({ where: { id: String(notification.body.paymentid) } });
      expect(payment).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount), processor });
      const approved = await db().operation.findMany({ where: { paymentId: payment.id, type: "authorize", status: "approved" } });
      expect(approved.map((operation) => operation.processorReference)).toEqual([held[0]!.transaction.id]);
      expect(notificationsFor(world, responseId)).toHaveLength(1);
    });
  }
});

// A crash mid-goPay() is finished by the session finisher: tests/faults/stuck-payments.test.ts.

/**
 * A cardholder payment of `amount` (its card stored, no processor yet) authorized across
 * `processors` with the fault `mode` armed at the first one's authorization: the payment's id and
 * what authorizePayment answered.
 */
async function authorizeWithFault(amount: number, mode: AcquirerFaultMode, processors: AcquirerName[], pan = "4111111111111111") {
  const { paymentId } = await createTestPayment({
    merchantId: world.merchant.merchantId,
    status: "PENDING",
    amount: BigInt(amount),
    processor: null,
    withStoredCard: { pan },
  });
  armAcquirerFault({ mode, processor: processors[0]!, operation: "authorize", amount });
  const result = await authorizePayment({ paymentId, source: { kind: "card", card: cardholderCard(pan) }, processors });
  return { paymentId, result };
}

describe("an authorization answered 502 after the acquirer approved", () => {
  it("is resolved at its acquirer before routing on: approved there, one hold, nothing routed to the next processor", async () => {
    const amount = uniqueAmount();
    const { result } = await authorizeWithFault(amount, "502_after_acting", ["finaro", "clearhaus"]);
    expect(result).toMatchObject({ status: "approved", processor: "finaro" });
    const held = acquirerTransactionsFor(world, amount).filter((entry) => entry.transaction.approved && !entry.transaction.voided);
    expect(held.map((entry) => entry.processor)).toEqual(["finaro"]);
    expect(acquirerTransactionsFor(world, amount).map((entry) => entry.processor)).toEqual(["finaro"]);
  });
});

describe("routing on after an unknown authorization never leaves two holds (M7)", () => {
  it("clearhaus (its sandbox look-up) acts after our time-out: routed on once its look-up proved nothing arrived, and its late approval is voided", async () => {
    const amount = uniqueAmount();
    const { result } = await authorizeWithFault(amount, "act_after_caller_gave_up", ["clearhaus", "finaro"]);
    expect(result).toMatchObject({ status: "approved", processor: "finaro" });
    await lateActsDone();
    await reconcileTimedOutAuthorizations({ olderThanMs: 0 });
    const held = acquirerTransactionsFor(world, amount).filter((entry) => entry.transaction.approved && !entry.transaction.voided);
    expect(held.map((entry) => entry.processor)).toEqual(["finaro"]);
    expect(acquirerTransactionsFor(world, amount).find((entry) => entry.processor === "clearhaus")?.transaction).toMatchObject({ approved: true, voided: true });
  });

  it("clearhaus as the real gateway (no look-up) answers 502 after approving: the routing stops, no second hold, an operator is alerted", async () => {
    const restore = asRealGateway(world, "clearhaus");
    try {
      const amount = uniqueAmount();
      const { paymentId, result } = await authorizeWithFault(amount, "502_after_acting", ["clearhaus", "finaro"]);
      expect(result).toMatchObject({ status: "pending", processor: "clearhaus" });
      expect(acquirerTransactionsFor(world, amount).map((entry) => entry.processor)).toEqual(["clearhaus"]);
      const attempt = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
      expect(attempt).toMatchObject({ status: "pending", processor: "clearhaus" });
      expect(attempt.operatorAlertedAt).not.toBeNull();
      expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("PENDING");
    } finally {
      restore();
    }
  });
});

describe("a Finaro partial approval (Z2 10) whose answer was lost", () => {
  it("found by the look-up: recorded as the partial approval it is (declined, code 10) and the partial hold voided, as the direct answer is", async () => {
    const amount = uniqueAmount() * 2;
    const { paymentId, result } = await authorizeWithFault(amount, "answer_lost_after_acting", ["finaro"], "4000000000000010");
    expect(result).toMatchObject({ status: "declined", responsecode: "10" });
    const attempt = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
    expect(attempt).toMatchObject({ status: "declined", responseCode: "10" });
    // Finaro holds half the amount: released at once, as when the answer arrives directly.
    const partial = acquirerTransactionsFor(world, amount / 2);
    expect(partial.map((entry) => entry.processor)).toEqual(["finaro"]);
    expect(partial[0]!.transaction).toMatchObject({ approved: true, voided: true });
  });
});
