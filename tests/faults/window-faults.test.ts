// The payment window's edges: a second window for a merchantpaymentid that another window already
// paid is refused clearly (not a technical error), and a payment whose challenge was abandoned is
// closed with its window instead of staying pending.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { closeExpiredSessions } from "@/lib/cardholder/close-expired-sessions";
import { completionNotificationId } from "@/lib/notifications/send-completion-notification";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { fieldsCard, useHostedFieldsServer } from "@/tests/helpers/hosted-fields-window";
import { createTestSession } from "@/tests/helpers/session-factory";
import { acquirerTransactionsFor, setUpFaultWorld, uniqueAmount, type FaultWorld } from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
const VISA = fieldsCard();

const hostedFields = useHostedFieldsServer();

/** Like the fields' own POSTs, answering the status too (a refusal must still be a 200 with a clear error). */
async function post(path: string, body: unknown) {
  const response = await fetch(`${hostedFields.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: hostedFields.origin },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function completionOf(sessionId: string) {
  const row = await db().notification.findUnique({ where: { id: completionNotificationId(sessionId) } });
  return row ? (JSON.parse(row.body) as Record<string, unknown>) : undefined;
}

describe("a second window for an already-paid merchantpaymentid", () => {
  it("is refused with ALREADY_PAID, its window closed and the merchant notified; nothing reaches an acquirer", async () => {
    const amount = uniqueAmount();
    const merchantPaymentId = `order-${amount}`;
    const options = { amount: BigInt(amount), merchantPaymentId, notificationUrl: `${world.receiver.url}/completion` };
    // Both windows are opened before either is paid (initdynamic refuses a reference already paid).
    const first = await createTestSession(world.merchant.merchantId, options);
    const second = await createTestSession(world.merchant.merchantId, options);
    const firstPayment = String((await post(`/dynamic/${first.id}/payments`, {})).body.paymentid);
    const paid = await post(`/dynamic/${first.id}/payments/${firstPayment}/authorize`, {
      card: VISA,
      binding: createOriginBinding(first.id, "http://shop.example"),
    });
    expect(paid.body.result).toBe("approved");

    const refused = await post(`/dynamic/${second.id}/payments`, {});
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      result: "failed",
      paymentid: null,
      errorcode: "ALREADY_PAID",
      errortext: "This order has already been paid (its merchantpaymentid is used by another payment).",
    });
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: second.id } })).status).toBe("COMPLETED");
    expect(await completionOf(second.id)).toMatchObject({ status: "failed", merchantpaymentid: merchantPaymentId });
    expect(acquirerTransactionsFor(world, amount)).toHaveLength(1);
    // Asking again gets the same clear answer.
    expect((await post(`/dynamic/${second.id}/payments`, {})).body).toMatchObject({ result: "failed" });
  });
});

describe("an abandoned challenge", () => {
  it("closes the payment with its window: the payment is timed out, not left pending", async () => {
    const amount = uniqueAmount();
    const session = await createTestSession(world.merchant.merchantId, {
      amount: BigInt(amount),
      set3ds: "FORCE_3DS",
      timeoutSeconds: 60,
      notificationUrl: `${world.receiver.url}/completion`,
    });
    const paymentId = String((await post(`/dynamic/${session.id}/payments`, {})).body.paymentid);
    // This card asks for a challenge; the cardholder never completes it.
    const challenged = await post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, {
      card: { ...VISA, pan: "4000000000003220" },
      binding: createOriginBinding(session.id, "http://shop.example"),
    });
    expect(challenged.body.result).toBe("challenge");
    const closed = await closeExpiredSessions({ now: new Date(Date.now() + 61_000) });
    expect(closed.closed).toContain(session.id);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.status).toBe("TIMED_OUT");
    expect(await completionOf(session.id)).toMatchObject({ status: "timeout" });
  });
});
