// instantcapture under faults, through goPay() over real HTTP: the cardholder is told "approved"
// only when the money was captured; after a failed capture (instantcapture 1) the authorization is
// voided, retried durably by the follow-up job when the void fails, and the merchant learns it from
// the window's completion (not approved, the capture's code), never from a notification of our own
// void; and the instant capture takes the payment lock and the amount rule, so a merchant capture
// arriving in the gap is not doubled.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { finishStuckPayments } from "@/lib/cardholder/finish-stuck-payments";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { captureInstantly } from "@/lib/payments/capture-instantly";
import { armAcquirerFault } from "@/lib/sandboxes/acquirers/faults";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { authorizeWithCard, fieldsCard, startWindowPayment, useHostedFieldsServer } from "@/tests/helpers/hosted-fields-window";
import { createTestSession } from "@/tests/helpers/session-factory";
import {
  PROCESSORS,
  currencyAt,
  acquirerAuthorization,
  cardholderCard,
  expectTotalsMatchLedger,
  settle,
  setUpFaultWorld,
  uniqueAmount,
  waitForNotification,
  type FaultWorld,
  eventuallyNudging,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
/** Every sandbox approves its authorization and declines its capture (05). */
const CAPTURE_DECLINED = fieldsCard("4000000000000341");

const hostedFields = useHostedFieldsServer();

async function pay(options: { instantCapture: 1 | 2; processor: (typeof PROCESSORS)[number]; amount: number; pan?: string }) {
  const session = await createTestSession(world.merchant.merchantId, {
    amount: BigInt(options.amount),
    currency: currencyAt(options.processor),
    instantCapture: options.instantCapture,
    processors: [options.processor],
    notificationUrl: `${world.receiver.url}/completion`,
  });
  const paymentId = await startWindowPayment(hostedFields, session.id);
  const result = await authorizeWithCard(hostedFields, session.id, paymentId, fieldsCard(options.pan));
  return { sessionId: session.id, paymentId, result };
}

/** Every notification the merchant received about the payment, in order. */
function notificationsOfPayment(paymentId: string) {
  return world.receiver.received.filter((request) => request.body.paymentid === paymentId);
}

function waitForCompletion(sessionId: string) {
  return eventuallyNudging(world, async () => world.receiver.received.find((request) => request.body.sessionid === sessionId), `the completion of ${sessionId}`);
}

describe.each(PROCESSORS)("at %s", (processor) => {
  it("instantcapture 1 whose capture is declined: the window ends with its completion (not approved: the capture's status and code, no authorization code), and our own void is never notified as an approval", async () => {
    const amount = uniqueAmount();
    const { sessionId, paymentId, result } = await pay({ instantCapture: 1, processor, amount, pan: CAPTURE_DECLINED.pan });
    expect(result).toMatchObject({ result: "failed", paymentid: paymentId, errorcode: "PAYMENT_ERROR" });
    expect((await acquirerAuthorization(world, paymentId)).voided).toBe(true);
    const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    expect(["declined", "failed"]).toContain(capture.status);
    const completion = await waitForCompletion(sessionId);
    expect(completion.body).toMatchObject({ paymentid: paymentId, status: capture.status, responsecode: capture.responseCode, authorizationcode: "" });
    expect(completion.body.responsecode).not.toMatch(/^(00|)$/);
    // The payment is over: the window is not offered for another attempt.
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("COMPLETED");
    await settle(world, paymentId);
    expect(notificationsOfPayment(paymentId).filter((request) => request.body.status === "approved")).toEqual([]);
    expect(notificationsOfPayment(paymentId).map((request) => request.headers["x-cps-notification-kind"])).toEqual(["completion"]);
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("VOIDED");
    await expectTotalsMatchLedger(world, paymentId);
  });

  it("instantcapture 1: capture declined and the void refused too: not approved; the void is retried durably, then the window completes not approved; no void notification", async () => {
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "refused", processor, operation: "void" });
    const { sessionId, paymentId, result } = await pay({ instantCapture: 1, processor, amount, pan: CAPTURE_DECLINED.pan });
    expect(result).toMatchObject({ result: "failed", paymentid: paymentId, errorcode: "PAYMENT_ERROR" });
    // The retried void releases the authorization at the acquirer.
    await eventuallyNudging(world, async () => (await acquirerAuthorization(world, paymentId)).voided, "the retried void");
    await settle(world, paymentId);
    const voids = await db().operation.findMany({ where: { paymentId, type: "void" }, orderBy: { createdAt: "asc" } });
    expect(voids.some((operation) => operation.status === "approved")).toBe(true);
    // No request was answered for these voids: they carry no responseid and are not notified.
    expect(voids.map((operation) => operation.responseId)).toEqual(voids.map(() => null));
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("VOIDED");
    // The session finisher ends the window once the authorization is released.
    await finishStuckPayments({ now: new Date(Date.now() + 60_000) });
    const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    expect((await waitForCompletion(sessionId)).body).toMatchObject({ status: capture.status, responsecode: capture.responseCode, authorizationcode: "" });
    await settle(world, paymentId);
    expect(notificationsOfPayment(paymentId).map((request) => request.headers["x-cps-notification-kind"])).toEqual(["completion"]);
    await expectTotalsMatchLedger(world, paymentId);
  });

  it("instantcapture 1: the capture's answer is lost after the acquirer captured: approved, captured once, nothing voided", async () => {
    const amount = uniqueAmount();
    armAcquirerFault({ mode: "answer_lost_after_acting", processor, operation: "capture", amount });
    const { paymentId, result } = await pay({ instantCapture: 1, processor, amount });
    expect(result).toMatchObject({ result: "approved", paymentid: paymentId });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: "CAPTURED", capturedAmount: BigInt(amount) });
    await expectTotalsMatchLedger(world, paymentId);
  });
});

describe("the gap between the authorization and the instant capture", () => {
  it.each(PROCESSORS)("at %s: a merchant capture accepted in the gap is the only capture", async (processor) => {
    const amount = uniqueAmount();
    const { paymentId } = await createTestPayment({
      merchantId: world.merchant.merchantId,
      status: "PENDING",
      amount: BigInt(amount),
      currency: currencyAt(processor),
      processor: null,
      withStoredCard: { pan: "4111111111111111" },
    });
    await db().payment.update({ where: { id: paymentId }, data: { instantCapture: 1 } });
    expect(
      (await authorizePayment({ paymentId, source: { kind: "card", card: cardholderCard() }, processors: [processor] })).status,
    ).toBe("approved");
    const merchantCapture = await world.api.call("POST", `/api/${paymentId}/capture`, { apiKey: world.merchant.apiKey, body: {} });
    expect(merchantCapture.status).toBe(200);
    // The instant capture runs now, while the merchant's capture holds the whole amount.
    const instant = await captureInstantly({ paymentId, voidOnFailure: true });
    expect(instant).toMatchObject({ voided: false });
    const notification = await waitForNotification(world, String(merchantCapture.body.responseid));
    expect(notification.body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    const transaction = await acquirerAuthorization(world, paymentId);
    expect(transaction.children.map((child) => child.kind)).toEqual(["capture"]);
    await expectTotalsMatchLedger(world, paymentId);
  });
});
