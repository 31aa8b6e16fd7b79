// Follow-ups that chain (newcomer review F1): a refund accepted while the payment's capture is still
// pending runs after that capture, at each acquirer, and never before it: the acquirer sees the
// capture first and then the refund, and the payment's books match its ledger. When the capture
// fails, the refund fails with the capture's reason and nothing is refunded. A void after a pending
// capture is refused with a clear reason.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { reconcileIndeterminateOperations } from "@/lib/payments/reconcile-indeterminate-operations";
import { resendStalledEvents } from "@/lib/payments/resend-stalled-events";
import { armAcquirerFault, lateActsDone } from "@/lib/sandboxes/acquirers/faults";
import {
  PROCESSORS,
  acquirerAuthorization,
  afterGrace,
  afterNotFoundClose,
  expectTotalsMatchLedger,
  notificationsFor,
  operationFor,
  paymentFor,
  requestFollowUp,
  settle,
  setUpFaultWorld,
  waitForJob,
  waitForNotification,
  type FaultWorld,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

async function acquirerOrder(paymentId: string) {
  return (await acquirerAuthorization(world, paymentId)).children.map((child) => `${child.kind}:${child.amount}`);
}

describe.each(PROCESSORS)("at %s", (processor) => {
  it("a refund sent right after its capture (the README pasted at once) is accepted and runs after the capture", async () => {
    const { paymentId, amount } = await paymentFor(world, "capture", processor);
    const capture = await requestFollowUp(world, paymentId, "capture", amount);
    const refund = await requestFollowUp(world, paymentId, "refund", 100);
    expect((await waitForNotification(world, capture)).body).toMatchObject({ responseid: capture, status: "approved" });
    expect((await waitForNotification(world, refund)).body).toMatchObject({ responseid: refund, status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(await acquirerOrder(paymentId)).toEqual([`capture:${amount}`, "refund:100"]);
  });

  it("a refund accepted while the capture's outcome is unknown waits for it, then runs once it is settled approved", async () => {
    const { paymentId, amount } = await paymentFor(world, "capture", processor);
    armAcquirerFault({ mode: "act_after_caller_gave_up", processor, operation: "capture", amount });
    const capture = await requestFollowUp(world, paymentId, "capture", amount);
    const refund = await requestFollowUp(world, paymentId, "refund", amount);
    await waitForJob(world, capture);
    await lateActsDone();
    // Still unknown: the refund has not gone to the acquirer and is not notified.
    expect(await operationFor(refund)).toMatchObject({ status: "pending", outcomeUnknownSince: null });
    expect(notificationsFor(world, refund)).toHaveLength(0);
    expect(await acquirerOrder(paymentId)).toEqual([`capture:${amount}`]);

    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
    expect((await waitForNotification(world, capture)).body).toMatchObject({ status: "approved" });
    expect((await waitForNotification(world, refund)).body).toMatchObject({ responseid: refund, status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(await acquirerOrder(paymentId)).toEqual([`capture:${amount}`, `refund:${amount}`]);
    expect(notificationsFor(world, refund)).toHaveLength(1);
  });

  it("a refund waiting for a capture that fails fails with the capture's reason, and nothing is refunded", async () => {
    const { paymentId, amount } = await paymentFor(world, "capture", processor);
    armAcquirerFault({ mode: "hang_before_acting", processor, operation: "capture", amount });
    const capture = await requestFollowUp(world, paymentId, "capture", amount);
    const refund = await requestFollowUp(world, paymentId, "refund", 500);
    await waitForJob(world, capture);
    expect(await operationFor(refund)).toMatchObject({ status: "pending" });

    // The capture never arrived: failed once the acquirer can no longer act on it (a day after its call).
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterNotFoundClose() });
    const captured = (await waitForNotification(world, capture)).body;
    expect(captured).toMatchObject({ status: "failed" });
    const refunded = (await waitForNotification(world, refund)).body;
    expect(refunded).toMatchObject({ responseid: refund, status: "failed", responsecode: captured.responsecode });
    const operation = await operationFor(refund);
    expect(operation.errorMessage).toMatch(/^the capture it followed failed: /);
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(await acquirerOrder(paymentId)).toEqual([]);
    // The payment is as before: authorized, its whole amount still capturable.
    const again = await requestFollowUp(world, paymentId, "capture", amount);
    expect((await waitForNotification(world, again)).body).toMatchObject({ status: "approved" });
  });

  it("a void after a pending capture is refused with a reason that says what to do, and changes nothing", async () => {
    const { paymentId, amount } = await paymentFor(world, "capture", processor);
    armAcquirerFault({ mode: "act_after_caller_gave_up", processor, operation: "capture", amount });
    const capture = await requestFollowUp(world, paymentId, "capture", amount);
    const voided = await world.api.call("POST", `/api/${paymentId}/void`, { apiKey: world.merchant.apiKey, body: {} });
    expect(voided.status).toBe(400);
    expect(voided.body).toEqual({
      error: "INVALID_PARAMETER",
      errordescription: "paymentid: a capture of this payment is in progress, and a void cannot follow it: refund the payment instead (a refund waits for the capture)",
    });
    expect(await db().operation.count({ where: { paymentId, type: "void" } })).toBe(0);
    await waitForJob(world, capture);
    await lateActsDone();
    await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
    expect((await waitForNotification(world, capture)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
  });
});

describe("the stalled-work job and waiting refunds", () => {
  it("leaves a refund waiting for a pending capture alone, and sends again one whose wake-up was lost", async () => {
    const { paymentId, amount } = await paymentFor(world, "capture", "clearhaus");
    armAcquirerFault({ mode: "act_after_caller_gave_up", processor: "clearhaus", operation: "capture", amount });
    const capture = await requestFollowUp(world, paymentId, "capture", amount);
    const refund = await requestFollowUp(world, paymentId, "refund", 200);
    await waitForJob(world, capture);
    await lateActsDone();
    const waiting = await operationFor(refund);
    expect(waiting.waitingSince).not.toBeNull();
    // Hours later, the capture still unknown: not stalled, never re-driven nor alerted.
    const later = new Date(Date.now() + 3 * 60 * 60_000);
    const round = await resendStalledEvents({ now: later });
    expect([...round.operationIds, ...round.redriven, ...round.gaveUp].filter((subject) => subject.includes(waiting.id))).toEqual([]);

    // The capture settles (as the acquirer has it), but its wake-up is lost (as if the event were
    // never sent: the row is written here, not by recordFollowUpResult): the job sends it.
    const [acted] = (await acquirerAuthorization(world, paymentId)).children;
    await db().operation.update({
      where: { id: (await operationFor(capture)).id },
      data: { status: "approved", responseCode: "20000", processorReference: acted!.id, outcomeUnknownSince: null, completedAt: new Date() },
    });
    await db().payment.update({ where: { id: paymentId }, data: { status: "CAPTURED", capturedAmount: BigInt(amount), balance: BigInt(amount) } });
    const repaired = await resendStalledEvents({ now: new Date(Date.now() + 2 * 60_000) });
    expect(repaired.operationIds).toContain(waiting.id);
    expect((await waitForNotification(world, refund)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
  });
});
