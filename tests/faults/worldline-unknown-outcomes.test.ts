// Unknown outcomes at bambora's Worldline platform (issue 39; decision 0176), every fault armed on
// the wire at the Worldline Direct sandbox: the rules the other acquirers follow (late acts held and
// found, look-ups by our reference, an operator where nothing can tell) hold here with Direct's own
// means. A lost authorization answer is asked again with the same X-GCS-Idempotence-Key while the
// card is at hand (Direct answers a repeat "with the same outcome as the original request"); a lost
// capture, refund or void is found in GetPaymentDetails by our merchantReference, whose absence is
// proof; what neither can tell waits for an operator. Each case ends with one act at Worldline, our
// books equal to its ledger, and the merchant told once.
import { afterEach, describe, expect, it } from "vitest";
import { runCliCommand } from "@/lib/cli/commands";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { reconcileIndeterminateOperations } from "@/lib/payments/reconcile-indeterminate-operations";
import { WORLDLINE_SANDBOX } from "@/lib/sandboxes/acquirers";
import { armAcquirerFault, lateActsDone, type AcquirerFaultMode } from "@/lib/sandboxes/acquirers/faults";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { eventually } from "../helpers/eventually";
import {
  acquirerAuthorization,
  acquirerTransactionsFor,
  afterGrace,
  afterNotFoundClose,
  authorizedPayment,
  cardholderCard,
  expectTotalsMatchLedger,
  followUpWithFault,
  notificationsFor,
  operationFor,
  requestFollowUp,
  settle,
  setUpFaultWorld,
  uniqueAmount,
  waitForNotification,
  type FaultWorld,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions, worldline: true });
const WORLDLINE = WORLDLINE_SANDBOX.name;

afterEach(() => {
  // Every case here runs on the Worldline account (DKK); nothing reaches Bambora North America (CAD).
  expect(world.sandboxes.ledgers.bambora!.transactions().filter((transaction) => transaction.currency === "DKK")).toEqual([]);
});

/** The payments Worldline holds for this amount. */
const atWorldline = (amount: number) => acquirerTransactionsFor(world, amount).filter((entry) => entry.processor === WORLDLINE);

/** Worldline's operations on the payment's authorization, as `kind:amount`. */
async function worldlineChildren(paymentId: string): Promise<string[]> {
  return (await acquirerAuthorization(world, paymentId)).children.map((child) => `${child.kind}:${child.amount}`);
}

/** A cardholder's DKK payment routed to bambora, which the merchant's Worldline account takes. */
async function pendingDkkPayment(amount: number) {
  return createTestPayment({ merchantId: world.merchant.merchantId, status: "PENDING", amount: BigInt(amount), currency: "DKK", processor: null });
}

describe("a Worldline authorization whose answer was lost", () => {
  const modes: AcquirerFaultMode[] = ["answer_lost_after_acting", "502_after_acting", "act_after_caller_gave_up"];
  it.each(modes)("%s: the same request with the same idempotence key finds the one payment; approved, one hold", async (mode) => {
    const amount = uniqueAmount();
    const { paymentId } = await pendingDkkPayment(amount);
    const fault = armAcquirerFault({ mode, processor: "bambora", operation: "authorize", amount });
    const result = await authorizePayment({ paymentId, source: { kind: "card", card: cardholderCard() }, processors: ["bambora"] });
    expect(result, JSON.stringify(result)).toMatchObject({ status: "approved", processor: "bambora" });
    // The first request hit the fault; its repeat (same key) got Worldline's answer.
    expect(fault.hits()).toBe(1);
    await lateActsDone();
    const held = atWorldline(amount);
    expect(held, "one payment at Worldline").toHaveLength(1);
    const attempt = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
    expect(attempt).toMatchObject({ status: "approved", acquirerAccountId: world.worldlineAccountId, processorReference: held[0]!.transaction.id });
    expect(attempt.operatorAlertedAt).toBeNull();
  });

  it("lost again on the repeat: the MIT waits for an operator (Direct has no search by our reference), settled approved with Worldline's payment id, notified once", async () => {
    const parent = await authorizedPayment(world, "bambora", uniqueAmount(), "DKK");
    const amount = uniqueAmount();
    const fault = armAcquirerFault({ mode: "answer_lost_after_acting", processor: "bambora", operation: "authorize", amount, times: 2 });
    const response = await world.api.call("POST", "/api/mit", {
      apiKey: world.merchant.apiKey,
      body: { merchantid: world.merchant.merchantId, paymentid: parent.paymentId, amount, currency: "DKK", paymenttype: "unscheduled", processor: "bambora" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const responseId = String(response.body.responseid);
    const payment = await db().payment.findFirstOrThrow({ where: { requestResponseId: responseId } });
    const attempt = await eventually(
      () => db().operation.findFirst({ where: { paymentId: payment.id, type: "authorize", operatorAlertedAt: { not: null } } }),
      { timeoutMs: 30_000, onTimeout: "return" },
    );
    expect(attempt, "the attempt left for an operator").toBeDefined();
    expect(attempt).toMatchObject({ status: "pending", acquirerAccountId: world.worldlineAccountId });
    expect(fault.hits(), "the first request and its one repeat").toBe(2);
    expect(notificationsFor(world, responseId)).toHaveLength(0);
    // The repeat carried the same key: Worldline made one payment.
    const held = atWorldline(amount);
    expect(held).toHaveLength(1);
    await runCliCommand(["operations", "settle", attempt!.id], {
      outcome: "approved",
      reference: held[0]!.transaction.id,
      reason: "payment found in the Worldline Merchant Portal",
    });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ responseid: responseId, status: "approved", processor: "bambora" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount) });
    // The operator's approval is a hold like any other: captured through the merchant API, the books equal Worldline's.
    const capture = await requestFollowUp(world, payment.id, "capture", amount);
    expect((await waitForNotification(world, capture)).body).toMatchObject({ status: "approved" });
    await settle(world, payment.id);
    await expectTotalsMatchLedger(world, payment.id);
    expect(notificationsFor(world, responseId)).toHaveLength(1);
  });

  it("never reaching Worldline, on the repeat either: the routing stops with it pending (no second hold anywhere); settled declined by an operator, nothing at Worldline", async () => {
    const amount = uniqueAmount();
    const { paymentId } = await pendingDkkPayment(amount);
    armAcquirerFault({ mode: "hang_before_acting", processor: "bambora", operation: "authorize", amount, times: 2 });
    const result = await authorizePayment({ paymentId, source: { kind: "card", card: cardholderCard() }, processors: ["bambora", "finaro"] });
    expect(result).toMatchObject({ status: "pending", processor: "bambora" });
    expect(acquirerTransactionsFor(world, amount), "nothing at Worldline, nothing routed on").toEqual([]);
    const attempt = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
    expect(attempt.operatorAlertedAt).not.toBeNull();
    await runCliCommand(["operations", "settle", attempt.id], { outcome: "declined", reason: "not in the Worldline Merchant Portal" });
    // The attempt is declined, nothing held; the payment's own consequence (a window's completion) is its owner's.
    expect(await db().operation.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({ status: "declined" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ authorizedAmount: 0n });
    expect(acquirerTransactionsFor(world, amount)).toEqual([]);
  });
});

describe("Worldline acts after the caller gave up", () => {
  for (const type of ["capture", "refund", "void"] as const) {
    it(`${type}: held pending through the grace period, then found in the payment's details by our reference; one ${type} at Worldline, notified once`, async () => {
      const { paymentId, responseId, operation } = await followUpWithFault(world, type, "bambora", { mode: "act_after_caller_gave_up" }, "DKK");
      // Right after the time-out Worldline had not acted yet: its details' "absent" is no proof so soon.
      expect(operation).toMatchObject({ status: "pending" });
      expect(notificationsFor(world, responseId)).toHaveLength(0);
      await lateActsDone();
      const again = await world.api.call("POST", `/api/${paymentId}/${type}`, { apiKey: world.merchant.apiKey, body: {} });
      expect(again.body.error, "the amount stays reserved meanwhile").toBe("INVALID_PARAMETER");

      const round = await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
      expect(round).toContainEqual(expect.objectContaining({ operationId: operation.id, result: "approved" }));
      expect((await waitForNotification(world, responseId)).body).toMatchObject({ responseid: responseId, status: "approved" });
      await settle(world, paymentId);
      await expectTotalsMatchLedger(world, paymentId);
      expect((await worldlineChildren(paymentId)).filter((child) => child.startsWith(type))).toHaveLength(1);
      expect(notificationsFor(world, responseId)).toHaveLength(1);
    });
  }
});

describe("a Worldline capture, looked up by our reference", () => {
  /** A DKK capture at Worldline with `mode` armed on it, requested and its job run (its outcome left unknown). */
  async function captureWith(mode: AcquirerFaultMode) {
    return followUpWithFault(world, "capture", "bambora", { mode }, "DKK");
  }

  it("whose answer was lost after Worldline captured: found in the payment's details, approved and notified once; no operator", async () => {
    const { paymentId, amount, responseId } = await captureWith("answer_lost_after_acting");
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    expect((await operationFor(responseId)).operatorAlertedAt).toBeNull();
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(await worldlineChildren(paymentId)).toEqual([`capture:${amount}`]);
  });

  it("that never reached Worldline: absent from a successful details answer, which is proof; closed failed once the close period is over, the amount released for a new capture", async () => {
    const { paymentId, amount, responseId } = await captureWith("hang_before_acting");
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
    expect(await operationFor(responseId)).toMatchObject({ status: "pending" });
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterNotFoundClose() });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "failed" });
    expect(await worldlineChildren(paymentId)).toEqual([]);
    const retry = await requestFollowUp(world, paymentId, "capture", amount);
    expect((await waitForNotification(world, retry)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(await worldlineChildren(paymentId)).toEqual([`capture:${amount}`]);
  });

  it("a details look-up Worldline refuses (its 400) keeps the outcome unknown; the next one settles it", async () => {
    // Armed before the capture: its own look-up right after the lost answer is the first refused.
    const refused = armAcquirerFault({ mode: "refused", processor: "bambora", operation: "lookup", times: 2 });
    const { paymentId, responseId } = await captureWith("answer_lost_after_acting");
    await reconcileIndeterminateOperations({ olderThanMs: 0 });
    expect(refused.hits()).toBe(2);
    expect(await operationFor(responseId)).toMatchObject({ status: "pending", lookupAttempts: 2 });
    expect(notificationsFor(world, responseId)).toHaveLength(0);
    await reconcileIndeterminateOperations({ olderThanMs: 0 });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
  });
});
