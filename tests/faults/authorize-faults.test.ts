// Authorizations and MITs when the service fails around the acquirer call: a retried MIT step, or
// the cardholder's next goPay(), first resolves the pending attempt under its original reference,
// so the card is held once. A crash before the call leaves an attempt the acquirer never saw: the
// look-up says so and the payment is routed as usual.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { armFaultPoint } from "@/lib/faults/fault-point";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { authorizePayment } from "@/lib/payments/authorize-payment";
import { reconcileTimedOutAuthorizations } from "@/lib/processors/reconcile-timed-out-authorizations";
import { armAcquirerFault } from "@/lib/sandboxes/acquirers/faults";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { startHostedFieldsServer, type HostedFieldsServer } from "@/tests/integration/hosted-fields/hosted-fields-server";
import { createTestSession } from "@/tests/integration/hosted-fields/session-factory";
import {
  MIT_PROCESSORS,
  PROCESSORS,
  currencyAt,
  acquirerTransactionsFor,
  notificationsFor,
  setUpFaultWorld,
  uniqueAmount,
  waitForNotification,
  type FaultWorld,
} from "./fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

let server: HostedFieldsServer;
beforeAll(async () => {
  server = await startHostedFieldsServer();
});
afterAll(async () => server?.close());

async function requestMit(processor: (typeof PROCESSORS)[number], amount: number) {
  const parent = await createTestPayment({
    merchantId: world.merchant.merchantId,
    status: "CAPTURED",
    captures: [10_000n],
    processor,
    withStoredCard: { pan: "4111111111111111" },
  });
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
      armFaultPoint(point);
      const responseId = await requestMit(processor, amount);
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

describe.each(PROCESSORS)("cardholder payment at %s", (processor) => {
  it("crash after the acquirer approved: the next goPay() finds that authorization instead of holding the card again", async () => {
    const amount = uniqueAmount();
    const session = await createTestSession(world.merchant.merchantId, {
      amount: BigInt(amount),
      currency: currencyAt(processor),
      processors: [processor],
      notificationUrl: `${world.receiver.url}/completion`,
    });
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server.origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.origin },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
    };
    const binding = createOriginBinding(session.id, "http://shop.example");
    const card = { pan: "4111111111111111", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };
    armFaultPoint("authorize.after-call");
    const paymentId = String((await post(`/dynamic/${session.id}/payments`, {})).body.paymentid);
    const crashed = await post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, { card, binding });
    expect(crashed.body.result).not.toBe("approved");
    // The cardholder presses pay again.
    expect((await post(`/dynamic/${session.id}/payments`, {})).body).toMatchObject({ result: "started", paymentid: paymentId });
    const again = await post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, { card, binding });
    expect(again.body).toMatchObject({ result: "approved", paymentid: paymentId });
    const held = acquirerTransactionsFor(world, amount).filter((entry) => entry.transaction.approved);
    expect(held).toHaveLength(1);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: "AUTHORIZED", authorizedAmount: BigInt(amount) });
    expect(payment.storedCardId).not.toBeNull();
  });
});

describe("an authorization answered 502 after the acquirer approved", () => {
  it("routes on (the spec's routing rule) and the late-approval reconciliation voids the first hold", async () => {
    const amount = uniqueAmount();
    const { paymentId, storedCardId } = await createTestPayment({
      merchantId: world.merchant.merchantId,
      status: "PENDING",
      amount: BigInt(amount),
      processor: null,
      withStoredCard: { pan: "4111111111111111" },
    });
    armAcquirerFault({ mode: "502_after_acting", processor: "finaro", operation: "authorize", amount });
    const result = await authorizePayment({ paymentId, source: { kind: "stored", storedCardId: storedCardId! }, processors: ["finaro", "clearhaus"] });
    expect(result).toMatchObject({ status: "approved", processor: "clearhaus" });
    await reconcileTimedOutAuthorizations({ olderThanMs: 0 });
    const held = acquirerTransactionsFor(world, amount).filter((entry) => entry.transaction.approved && !entry.transaction.voided);
    expect(held.map((entry) => entry.processor)).toEqual(["clearhaus"]);
    expect(acquirerTransactionsFor(world, amount).find((entry) => entry.processor === "finaro")?.transaction.voided).toBe(true);
  });
});
