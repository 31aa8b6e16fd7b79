// Notification delivery under faults: the merchant's endpoint fails (HTTP 500, then a hang past the
// sender's time-out) before it takes the notification; the delivery is retried on its schedule with
// the same bytes, the same webhook-id and the same responseid, until one attempt is acknowledged.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { authorizedPayment, expectTotalsMatchLedger, nudge, settle, setUpFaultWorld, type FaultWorld } from "./fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });

describe("a capture's notification", () => {
  it("is retried after the merchant's endpoint failed, with one stable responseid, and acknowledged once", async () => {
    const { paymentId } = await authorizedPayment(world, "finaro");
    world.receiver.script({ status: 500 }, { status: 503 });
    const response = await world.api.call("POST", `/api/${paymentId}/capture`, { apiKey: world.merchant.apiKey, body: {} });
    const responseId = String(response.body.responseid);
    const deadline = Date.now() + 60_000;
    let attempts = world.receiver.received.filter((request) => request.body.responseid === responseId);
    while (attempts.length < 3) {
      if (Date.now() > deadline) throw new Error(`only ${attempts.length} delivery attempts`);
      await nudge(world);
      attempts = world.receiver.received.filter((request) => request.body.responseid === responseId);
    }
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
