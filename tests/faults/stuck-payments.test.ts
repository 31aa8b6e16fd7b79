// No cardholder payment or MIT is stuck (issue 21, H3, H4, M2): a completion that fails after an
// approval, a crash mid-goPay, an authorization whose outcome stays unknown, a window that expires
// while it is unknown, an MIT whose look-ups stay unanswered through its run, and an instant
// capture whose outcome is unknown. The session finisher and the attempt resolver
// (lib/cardholder/finish-stuck-payments.ts, run by the job every minute) finish each with one
// notification, and the acquirer holds the card once or not at all.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { finishStuckPayments } from "@/lib/cardholder/finish-stuck-payments";
import { armFaultPoint } from "@/lib/faults/fault-point";
import { runCliCommand } from "@/lib/cli/commands";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { reconcileIndeterminateOperations } from "@/lib/payments/reconcile-indeterminate-operations";
import { armAcquirerFault, clearAcquirerFaults } from "@/lib/sandboxes/acquirers/faults";
import { fieldsCard, useHostedFieldsServer } from "@/tests/helpers/hosted-fields-window";
import { createTestSession } from "@/tests/helpers/session-factory";
import {
  MIT_PROCESSORS,
  PROCESSORS,
  currencyAt,
  acquirerTransactionsFor,
  asRealGateway,
  authorizedPayment,
  expectTotalsMatchLedger,
  notificationsFor,
  setUpFaultWorld,
  uniqueAmount,
  waitForNotification,
  type FaultWorld,
  eventuallyNudging,
  nudge,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
const hostedFields = useHostedFieldsServer();

/** A time when the rows the request left are due for the job (the job leaves younger work alone). */
const later = (ms = 2 * 60_000) => new Date(Date.now() + ms);

/** Like the fields' own POSTs, but a request that a fault point crashed answers {} instead of throwing. */
async function post(path: string, body: unknown) {
  const response = await fetch(`${hostedFields.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: hostedFields.origin },
    body: JSON.stringify(body),
  });
  return (await response.json().catch(() => ({}))) as Record<string, unknown>;
}

async function openWindow(processor: (typeof PROCESSORS)[number], amount: number, options: { instantCapture?: number; timeout?: number } = {}) {
  const session = await createTestSession(world.merchant.merchantId, {
    amount: BigInt(amount),
    currency: currencyAt(processor),
    processors: [processor],
    notificationUrl: `${world.receiver.url}/completion`,
    ...(options.instantCapture ? { instantCapture: options.instantCapture } : {}),
  });
  const paymentId = String((await post(`/dynamic/${session.id}/payments`, {})).paymentid);
  const pay = () => post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, { card: fieldsCard(), binding: createOriginBinding(session.id, "http://shop.example") });
  return { sessionId: session.id, paymentId, pay };
}

function completionsFor(sessionId: string) {
  return world.receiver.received.filter((request) => request.body.sessionid === sessionId);
}

async function waitForCompletion(sessionId: string) {
  return eventuallyNudging(world, async () => completionsFor(sessionId)[0], `a completion notification for ${sessionId}`, 20_000);
}

async function sessionOf(sessionId: string) {
  return db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } });
}

describe("a goPay() that could not finish its window", () => {
  it("the completion transaction fails after an approval: the cardholder is told approved, the finisher completes the window, notified once", async () => {
    const amount = uniqueAmount();
    const { sessionId, paymentId, pay } = await openWindow("finaro", amount);
    armFaultPoint("session.complete");
    expect(await pay()).toMatchObject({ result: "approved", paymentid: paymentId });
    expect((await sessionOf(sessionId)).status).toBe("PROCESSING");
    expect(completionsFor(sessionId)).toHaveLength(0);
    await finishStuckPayments();
    expect((await waitForCompletion(sessionId)).body).toMatchObject({ status: "approved", paymentid: paymentId });
    expect((await sessionOf(sessionId)).status).toBe("COMPLETED");
    await finishStuckPayments({ now: later() });
    expect(completionsFor(sessionId)).toHaveLength(1);
  });

  it.each(PROCESSORS)("at %s, a crash after the acquirer approved: the window is finished by the job (approved, one hold, notified once), not left PROCESSING", async (processor) => {
    const amount = uniqueAmount();
    const { sessionId, paymentId, pay } = await openWindow(processor, amount);
    armFaultPoint("authorize.after-call");
    expect((await pay()).result).toBe("failed");
    // The window is not handed back to the cardholder while the card may be held.
    expect((await sessionOf(sessionId)).status).toBe("PROCESSING");
    await finishStuckPayments({ now: later() });
    expect((await waitForCompletion(sessionId)).body).toMatchObject({ status: "approved", paymentid: paymentId });
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount) });
    expect(acquirerTransactionsFor(world, amount).filter((entry) => entry.transaction.approved)).toHaveLength(1);
    await finishStuckPayments({ now: later(3 * 60_000) });
    expect(completionsFor(sessionId)).toHaveLength(1);
  });

  it("an authorization whose outcome stays unknown: the cardholder is told pending; the window expires with completion timeout, and the approval found later is voided", async () => {
    const amount = uniqueAmount();
    const { sessionId, paymentId, pay } = await openWindow("finaro", amount);
    armAcquirerFault({ mode: "answer_lost_after_acting", processor: "finaro", operation: "authorize", amount });
    armAcquirerFault({ mode: "hang_before_acting", processor: "finaro", operation: "lookup" });
    expect(await pay()).toMatchObject({ result: "failed", errorcode: "PAYMENT_PENDING" });
    expect((await sessionOf(sessionId)).status).toBe("PROCESSING");
    // The window's time runs out while the outcome is unknown (look-ups still failing).
    armAcquirerFault({ mode: "hang_before_acting", processor: "finaro", operation: "lookup" });
    const { expiresAt } = await sessionOf(sessionId);
    await finishStuckPayments({ now: new Date(expiresAt.getTime() + 1_000) });
    expect((await waitForCompletion(sessionId)).body).toMatchObject({ status: "timeout", paymentid: paymentId });
    // The acquirer's answer becomes known: it approved, so the hold is released.
    await finishStuckPayments({ now: new Date(expiresAt.getTime() + 5 * 60_000) });
    const held = acquirerTransactionsFor(world, amount);
    expect(held).toHaveLength(1);
    expect(held[0]!.transaction).toMatchObject({ approved: true, voided: true });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("TIMED_OUT");
    expect(completionsFor(sessionId)).toHaveLength(1);
  });

  it.each(["finaro", "bambora"] as const)(
    "at %s, an unknown authorization found approved by the first round after its window expired: completed approved (the truth), one hold kept, never a timeout that carries the approval",
    async (processor) => {
      const amount = uniqueAmount();
      const { sessionId, paymentId, pay } = await openWindow(processor, amount);
      armAcquirerFault({ mode: "answer_lost_after_acting", processor, operation: "authorize", amount });
      armAcquirerFault({ mode: "hang_before_acting", processor, operation: "lookup" });
      expect(await pay()).toMatchObject({ result: "failed", errorcode: "PAYMENT_PENDING" });
      // The first round after the window's end looks the attempt up first, and the acquirer answers: approved.
      const { expiresAt } = await sessionOf(sessionId);
      await finishStuckPayments({ now: new Date(expiresAt.getTime() + 1_000) });
      const completion = (await waitForCompletion(sessionId)).body;
      expect(completion).toMatchObject({ status: "approved", paymentid: paymentId, responsecode: "00", processor });
      expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount) });
      expect((await sessionOf(sessionId)).status).toBe("COMPLETED");
      // The merchant was told approved: the hold is the payment and stays (not voided).
      const held = acquirerTransactionsFor(world, amount);
      expect(held).toHaveLength(1);
      expect(held[0]!.transaction).toMatchObject({ approved: true, voided: false });
      await finishStuckPayments({ now: new Date(expiresAt.getTime() + 5 * 60_000) });
      expect(acquirerTransactionsFor(world, amount)[0]!.transaction.voided).toBe(false);
      expect(completionsFor(sessionId)).toHaveLength(1);
    },
  );

  it("instantcapture 1 whose capture's outcome is unknown: told pending, not timed out; completed approved once the capture is found, then one capture notification carrying the sessionid, never before the completion (N8)", async () => {
    const amount = uniqueAmount();
    const { sessionId, paymentId, pay } = await openWindow("finaro", amount, { instantCapture: 1 });
    armAcquirerFault({ mode: "answer_lost_after_acting", processor: "finaro", operation: "capture", amount });
    armAcquirerFault({ mode: "hang_before_acting", processor: "finaro", operation: "lookup" });
    expect(await pay()).toMatchObject({ result: "failed", errorcode: "PAYMENT_PENDING" });
    // Not over while the capture is unknown, even after the window's end: no "timeout" for money that may be taken.
    const { expiresAt } = await sessionOf(sessionId);
    await finishStuckPayments({ now: new Date(expiresAt.getTime() + 1_000) });
    expect(completionsFor(sessionId)).toHaveLength(0);
    await reconcileIndeterminateOperations({ olderThanMs: 0 });
    // The capture is settled (found approved); the window is completed by the finisher's next round.
    for (let round = 0; round < 10; round++) await nudge(world);
    await finishStuckPayments({ now: new Date(expiresAt.getTime() + 2_000) });
    const completion = await waitForCompletion(sessionId);
    expect(completion.body).toMatchObject({ status: "approved", paymentid: paymentId });
    const captureNotice = await waitForNotification(world, sessionId);
    expect(captureNotice.body).toMatchObject({ responseid: sessionId, paymentid: paymentId, status: "approved" });
    // One order: the completion first, then the capture's result.
    expect(world.receiver.received.indexOf(captureNotice)).toBeGreaterThan(world.receiver.received.indexOf(completion));
    expect(notificationsFor(world, sessionId)).toHaveLength(1);
    await expectTotalsMatchLedger(world, paymentId);
  });
});

describe("a goPay() whose process died after Clearhaus approved (no look-up there: an operator settles the attempt)", () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  /** The window's attempt waits for an operator: Clearhaus (as the real gateway) approved it, then the request's process failed. */
  async function windowWaitingForOperator() {
    restore = asRealGateway(world, "clearhaus");
    const amount = uniqueAmount();
    const { sessionId, paymentId, pay } = await openWindow("clearhaus", amount);
    armFaultPoint("authorize.after-call");
    expect((await pay()).result).toBe("failed");
    await finishStuckPayments({ now: later() });
    const attempt = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
    expect(attempt.status).toBe("pending");
    expect(attempt.operatorAlertedAt, "the operator is alerted at once (no look-up)").not.toBeNull();
    const held = acquirerTransactionsFor(world, amount);
    expect(held.map((entry) => entry.transaction.approved)).toEqual([true]);
    return { amount, sessionId, paymentId, attempt, reference: held[0]!.transaction.id };
  }

  const settleApproved = (operationId: string, reference: string) =>
    runCliCommand(["operations", "settle", operationId], { outcome: "approved", reference, reason: "authorization in the Clearhaus dashboard" });

  it("settled approved after the window's time ran out but before a round closed it: completed approved, the payment authorized, the hold kept", async () => {
    const { amount, sessionId, paymentId, attempt, reference } = await windowWaitingForOperator();
    // The operator took longer than the window's time.
    await db().paymentSession.update({ where: { id: sessionId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await settleApproved(attempt.id, reference);
    expect((await waitForCompletion(sessionId)).body).toMatchObject({ status: "approved", paymentid: paymentId, responsecode: "00" });
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount) });
    expect(await db().operation.findMany({ where: { paymentId }, select: { type: true, status: true, responseCode: true } })).toEqual([
      { type: "authorize", status: "approved", responseCode: "00" },
    ]);
    expect(acquirerTransactionsFor(world, amount)[0]!.transaction).toMatchObject({ approved: true, voided: false });
    await finishStuckPayments({ now: later(5 * 60_000) });
    expect(completionsFor(sessionId)).toHaveLength(1);
  });

  it("settled approved after a round closed the window as timeout: the hold is voided, the payment reads timed out, and the timeout carried no approval code", async () => {
    const { amount, sessionId, paymentId, attempt, reference } = await windowWaitingForOperator();
    const { expiresAt } = await sessionOf(sessionId);
    await finishStuckPayments({ now: new Date(expiresAt.getTime() + 1_000) });
    const completion = (await waitForCompletion(sessionId)).body;
    expect(completion).toMatchObject({ status: "timeout", paymentid: paymentId });
    expect(completion.responsecode).not.toBe("00");
    await settleApproved(attempt.id, reference);
    expect(acquirerTransactionsFor(world, amount)[0]!.transaction).toMatchObject({ approved: true, voided: true });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("TIMED_OUT");
    expect(completionsFor(sessionId)).toHaveLength(1);
  });
});

describe("an MIT whose authorization stays unknown through its run", () => {
  it.each(MIT_PROCESSORS)("at %s: the run ends without routing on or notifying; the job resolves the attempt, one MIT notification, one hold", async (processor) => {
    const amount = uniqueAmount();
    // A real first payment at the processor: an MIT continues what the cardholder's payment started there.
    const parent = await authorizedPayment(world, processor);
    armAcquirerFault({ mode: "answer_lost_after_acting", processor, operation: "authorize", amount });
    armAcquirerFault({ mode: "hang_before_acting", processor, operation: "lookup", times: 5 });
    const response = await world.api.call("POST", "/api/mit", {
      apiKey: world.merchant.apiKey,
      body: { merchantid: world.merchant.merchantId, paymentid: parent.paymentId, amount, currency: "DKK", paymenttype: "unscheduled", processor },
    });
    const responseId = String(response.body.responseid);
    const payment = await db().payment.findFirstOrThrow({ where: { requestResponseId: responseId } });
    // The MIT run: its attempt's answer is lost, the look-ups hang; the run ends without a result.
    await eventuallyNudging(
      world,
      async () => {
        const called = await db().operation.count({ where: { paymentId: payment.id, type: "authorize", callEndedAt: { not: null } } });
        const active = await db().inngestRun.count({ where: { status: { in: ["queued", "running", "sleeping"] } } });
        return called > 0 && active === 0;
      },
      "the MIT run to end",
      30_000,
    );
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: "PENDING" });
    expect(notificationsFor(world, responseId)).toHaveLength(0);
    // Routing stopped at the unknown attempt: no other acquirer holds the card.
    expect(acquirerTransactionsFor(world, amount).map((entry) => entry.processor)).toEqual([processor]);

    // The acquirer answers look-ups again.
    clearAcquirerFaults();
    await finishStuckPayments({ now: later() });
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved", processor, paymentid: payment.id });
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount) });
    await finishStuckPayments({ now: later(3 * 60_000) });
    expect(notificationsFor(world, responseId)).toHaveLength(1);
    expect(acquirerTransactionsFor(world, amount)).toHaveLength(1);
  });
});
