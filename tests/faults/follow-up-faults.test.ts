// Captures, refunds and voids under acquirer faults and service crashes, at each acquirer: the
// answer lost after the acquirer acted, a 502 after acting, a hang before acting, a duplicated
// request, and a crash between the acquirer's answer and its record. After every case the
// operation the merchant was answered for is performed at the acquirer exactly once, notified once
// with its responseid, and the payment's totals match the acquirer's ledger.
import { describe, expect, it } from "vitest";
import { armFaultPoint } from "@/lib/faults/fault-point";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { captureLogs } from "@/lib/observability/logger";
import { reconcileIndeterminateOperations } from "@/lib/payments/reconcile-indeterminate-operations";
import { armAcquirerFault, clearAcquirerFaults, type AcquirerFaultMode } from "@/lib/sandboxes/acquirers/faults";
import {
  PROCESSORS,
  afterGrace,
  afterNotFoundClose,
  operationFor,
  paymentFor as paymentReadyFor,
  requestFollowUp,
  waitForJob as waitForJobRun,
  type FollowUp,
  acquirerAuthorization,
  expectTotalsMatchLedger,
  notificationsFor,
  settle,
  setUpFaultWorld,
  waitForNotification,
  type FaultWorld,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

const request = (paymentId: string, type: FollowUp, amount?: number) => requestFollowUp(world, paymentId, type, amount);
const waitForJob = (responseId: string) => waitForJobRun(world, responseId);
const paymentFor = (type: FollowUp, processor: (typeof PROCESSORS)[number]) => paymentReadyFor(world, type, processor);

const ACTED: AcquirerFaultMode[] = ["answer_lost_after_acting", "502_after_acting"];

describe.each(PROCESSORS)("at %s", (processor) => {
  for (const type of ["capture", "refund", "void"] as const) {
    for (const mode of ACTED) {
      it(`${type}, ${mode}: held pending with its reservation, then settled as approved by the look-up, notified once`, async () => {
        const { paymentId, amount } = await paymentFor(type, processor);
        const fault = armAcquirerFault({ mode, processor, operation: type, amount: type === "void" ? undefined : amount });
        const responseId = await request(paymentId, type, type === "void" ? undefined : amount);
        // The look-up right after the lost answer finds it; when that one fails too, the round does.
        const operation = await waitForJob(responseId);
        expect(fault.hits()).toBe(1);
        if (operation.status === "pending") {
          expect(operation.outcomeUnknownSince).not.toBeNull();
          await reconcileIndeterminateOperations({ olderThanMs: 0 });
        }
        const notification = await waitForNotification(world, responseId);
        expect(notification.body).toMatchObject({ responseid: responseId, status: "approved" });
        expect((await operationFor(responseId)).status).toBe("approved");
        await settle(world, paymentId);
        await expectTotalsMatchLedger(world, paymentId);
        expect(notificationsFor(world, responseId)).toHaveLength(1);
      });
    }

    it(`${type}, hang before acting: not found, pending and reserved through the grace period and the day after (an operator told), then failed and its reservation released`, async () => {
      const { paymentId, amount } = await paymentFor(type, processor);
      armAcquirerFault({ mode: "hang_before_acting", processor, operation: type, amount: type === "void" ? undefined : amount });
      const responseId = await request(paymentId, type, type === "void" ? undefined : amount);
      await waitForJob(responseId);
      // Not found right after the call proves nothing yet: the acquirer may still act.
      await reconcileIndeterminateOperations({ olderThanMs: 0 });
      expect(await operationFor(responseId)).toMatchObject({ status: "pending" });
      expect(notificationsFor(world, responseId)).toHaveLength(0);
      // Past the grace period it may still act on a request it received late: still pending, an operator told.
      await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterGrace() });
      const waiting = await operationFor(responseId);
      expect(waiting).toMatchObject({ status: "pending" });
      expect(waiting.operatorAlertedAt).not.toBeNull();
      expect(notificationsFor(world, responseId)).toHaveLength(0);
      await reconcileIndeterminateOperations({ olderThanMs: 0, now: afterNotFoundClose() });
      const notification = await waitForNotification(world, responseId);
      expect(notification.body).toMatchObject({ responseid: responseId, status: "failed" });
      await settle(world, paymentId);
      await expectTotalsMatchLedger(world, paymentId);
      // Released: the same operation can be asked for again, and is performed once.
      const again = await request(paymentId, type, type === "void" ? undefined : amount);
      expect((await waitForNotification(world, again)).body).toMatchObject({ status: "approved" });
      await settle(world, paymentId);
      await expectTotalsMatchLedger(world, paymentId);
    });
  }

  it("capture, duplicated request on the wire: one capture at the acquirer", async () => {
    const { paymentId, amount } = await paymentFor("capture", processor);
    armAcquirerFault({ mode: "duplicate_request", processor, operation: "capture", amount });
    const responseId = await request(paymentId, "capture", amount);
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect((await acquirerAuthorization(world, paymentId)).children).toHaveLength(1);
  });

  it("capture, crash between the acquirer's answer and its record: the retried step captures nothing twice", async () => {
    const { paymentId, amount } = await paymentFor("capture", processor);
    armFaultPoint("follow-up.after-call");
    const responseId = await request(paymentId, "capture", amount);
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(notificationsFor(world, responseId)).toHaveLength(1);
  });
});

describe("left for an operator", () => {
  it("a capture whose look-ups get no answer keeps its reservation, alerts once, shows the state, and is still looked up with back-off", async () => {
    const { paymentId, amount } = await paymentFor("capture", "finaro");
    armAcquirerFault({ mode: "answer_lost_after_acting", processor: "finaro", operation: "capture", amount });
    // Every look-up hangs past the time-out.
    armAcquirerFault({ mode: "hang_before_acting", processor: "finaro", operation: "lookup", times: 20 });
    const responseId = await request(paymentId, "capture", amount);
    const operation = await waitForJob(responseId);
    expect(operation).toMatchObject({ status: "pending" });
    const logged = captureLogs();
    try {
      for (let round = 0; round < 3; round++) await reconcileIndeterminateOperations({ olderThanMs: 0, maxLookups: 3 });
    } finally {
      logged.stop();
    }
    const errors = logged
      .entries()
      .filter((entry) => entry.level === 50 && entry.component === "reconcile")
      .map((entry) => String(entry.msg));
    const left = await operationFor(responseId);
    expect(left).toMatchObject({ status: "pending" });
    expect(left.lookupAttempts).toBeGreaterThanOrEqual(3);
    expect(left.operatorAlertedAt).not.toBeNull();
    expect(
      errors.filter((line) => line.includes(operation.id)),
      JSON.stringify(logged.lines()),
    ).toHaveLength(1);
    // The reservation holds: nothing more can be captured while the outcome is unknown.
    const more = await world.api.call("POST", `/api/${paymentId}/capture`, { apiKey: world.merchant.apiKey, body: { amount: 1 } });
    expect(more.body.error).toBe("INVALID_PARAMETER");
    expect(notificationsFor(world, responseId)).toHaveLength(0);
    // After the alert the look-ups go on, hourly: none in the next minute, one an hour later, which
    // settles it (the acquirer answers look-ups again by then).
    expect(await reconcileIndeterminateOperations({ olderThanMs: 0, maxLookups: 3, now: new Date(Date.now() + 60_000) })).toEqual([]);
    clearAcquirerFaults();
    const hourLater = await reconcileIndeterminateOperations({ olderThanMs: 0, maxLookups: 3, now: new Date(Date.now() + 61 * 60_000) });
    expect(hourLater).toMatchObject([{ operationId: operation.id, result: "approved" }]);
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
  });
});
