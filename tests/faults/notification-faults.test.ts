// Notification delivery under faults: the merchant's endpoint fails (HTTP 500, then a hang past the
// sender's time-out) before it takes the notification; the delivery is retried on its schedule with
// the same bytes, the same webhook-id and the same responseid, until one attempt is acknowledged.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { newId } from "@/lib/ids";
import { notificationCreated } from "@/lib/inngest/events/merchant-api";
import { sendEvent } from "@/lib/inngest/send-event";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { authorizedPayment, expectTotalsMatchLedger, nudge, settle, setUpFaultWorld, waitForNotification, type FaultWorld, eventuallyNudging } from "../helpers/fault-harness";
import { quietFor } from "../helpers/eventually";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

describe("a capture's notification", () => {
  it("is retried after the merchant's endpoint failed, with one stable responseid, and acknowledged once", async () => {
    const { paymentId } = await authorizedPayment(world, "finaro");
    world.receiver.script({ status: 500 }, { status: 503 });
    const response = await world.api.call("POST", `/api/${paymentId}/capture`, { apiKey: world.merchant.apiKey, body: {} });
    const responseId = String(response.body.responseid);
    const attemptsSoFar = () => world.receiver.received.filter((request) => request.body.responseid === responseId);
    const attempts = await eventuallyNudging(world, async () => attemptsSoFar().length >= 3 && attemptsSoFar(), () => `3 delivery attempts (${attemptsSoFar().length} so far)`, 60_000);
    expect(new Set(attempts.map((attempt) => attempt.rawBody)).size).toBe(1);
    expect(new Set(attempts.map((attempt) => attempt.headers["webhook-id"])).size).toBe(1);
    expect(attempts[0]!.body).toMatchObject({ status: "approved", paymentid: paymentId });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    const operation = await db().operation.findFirstOrThrow({ where: { responseId } });
    const row = await db().notification.findUniqueOrThrow({ where: { id: `msg_operation_${operation.id}` } });
    expect(row.status).toBe("delivered");
    // Delivery is at least once (a failure of ours after the 200 delivers again): whatever arrives
    // later is the same message, which the merchant recognises by its webhook-id.
    for (let round = 0; round < 5; round++) await nudge(world);
    const all = world.receiver.received.filter((request) => request.body.responseid === responseId);
    expect(new Set(all.map((attempt) => `${String(attempt.headers["webhook-id"])} ${attempt.rawBody}`)).size).toBe(1);
  });
});

describe("order and repeats (L2)", () => {
  it("a delivered notification never returns to pending: a slower attempt that failed does not undo the 200 of a faster one", async () => {
    const { paymentId } = await authorizedPayment(world, "finaro");
    const id = `msg_${newId()}`;
    await enqueueNotification({ id, merchantId: world.merchant.merchantId, mode: "test", paymentId, kind: "capture", url: world.receiver.url, body: { probe: id } });
    // The first attempt hangs, then fails; a retried attempt meanwhile gets the 200.
    world.receiver.script({ status: 500, delayMs: 1_000 }, { status: 200 });
    const slow = deliverNotificationAttempt({ notificationId: id, attemptNumber: 1 });
    await quietFor(200, "the slow attempt is under way first");
    expect(await deliverNotificationAttempt({ notificationId: id, attemptNumber: 2 })).toMatchObject({ delivered: true });
    expect(await slow).toMatchObject({ delivered: false });
    expect(await db().notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "delivered", nextAttemptAt: null });
    expect(await db().notificationAttempt.count({ where: { notificationId: id } })).toBe(2);
  });

  it("a capture's result never overtakes the completion: it waits until the completion is delivered, then goes out", async () => {
    const { paymentId } = await authorizedPayment(world, "clearhaus");
    const completion = `msg_completion_${newId()}`;
    await enqueueNotification({
      id: completion,
      merchantId: world.merchant.merchantId,
      mode: "test",
      paymentId,
      kind: "completion",
      url: `${world.receiver.url}/completion`,
      body: { sessionid: completion, paymentid: paymentId, status: "approved" },
    });
    // The completion's immediate attempt fails; its retry (3 s later on the schedule) is acknowledged.
    world.receiver.script({ status: 500 });
    expect(await deliverNotificationAttempt({ notificationId: completion, attemptNumber: 1 })).toMatchObject({ delivered: false });
    await sendEvent({ type: notificationCreated, data: { notificationId: completion, fromAttempt: 2 }, id: `notification-${completion}` });
    // The merchant captures at once, on jspaymentsuccess.
    const response = await world.api.call("POST", `/api/${paymentId}/capture`, { apiKey: world.merchant.apiKey, body: {} });
    const responseId = String(response.body.responseid);
    await waitForNotification(world, responseId);
    const order = world.receiver.received.map((request) => (request.body.responseid === responseId ? "capture" : request.body.sessionid === completion ? "completion" : "other"));
    const completionDelivered = order.lastIndexOf("completion");
    expect(order.filter((entry) => entry === "completion")).toHaveLength(2);
    expect(order.indexOf("capture")).toBeGreaterThan(completionDelivered);
    await settle(world, paymentId);
    expect(await db().notification.findUniqueOrThrow({ where: { id: completion } })).toMatchObject({ status: "delivered" });
  });
});
