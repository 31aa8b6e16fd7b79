// Failed background runs restart (issue 21, M5): the stalled-work job re-drives a run that failed
// for good with a fresh event id (its original id is deduplicated away), a bounded number of times
// with back-off, oldest first, and never fills its batch with rows it cannot fix.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { armFaultPoint } from "@/lib/faults/fault-point";
import { newId } from "@/lib/ids";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { captureLogs } from "@/lib/observability/logger";
import { MAX_REDRIVES, REDRIVE_AFTER_MS, resendStalledEvents } from "@/lib/payments/resend-stalled-events";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import {
  authorizedPayment,
  expectTotalsMatchLedger,
  notificationsFor,
  requestFollowUp,
  settle,
  setUpFaultWorld,
  waitForNotification,
  type FaultWorld,
  eventuallyNudging,
} from "../helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
/** Every try of one run of run-follow-up-operation: the first and its 3 retries. */
const TRIES_PER_RUN = 4;

/** Waits until the run started by the event sent with this id (its idempotency key) has failed for good. */
async function runFailed(sentId: string) {
  let status = "no run";
  await eventuallyNudging(
    world,
    async () => {
      const event = await db().inngestEvent.findFirst({ where: { idempotencyKey: sentId }, select: { payload: true } });
      const eventId = event ? String((event.payload as { id: string }).id) : undefined;
      const run = eventId ? await db().inngestRun.findFirst({ where: { event: { path: ["id"], equals: eventId } }, select: { status: true } }) : null;
      status = run?.status ?? "no run";
      return run?.status === "failed";
    },
    () => `the run of ${sentId} to fail (${status})`,
    60_000,
  );
}

describe("a run that failed for good", () => {
  it("a capture whose run failed before its acquirer call is re-driven with a fresh event id once the run has ended, and captured once", async () => {
    const { paymentId, amount } = await authorizedPayment(world, "finaro");
    armFaultPoint("follow-up.before-call", TRIES_PER_RUN);
    const responseId = await requestFollowUp(world, paymentId, "capture", amount);
    const operation = await db().operation.findFirstOrThrow({ where: { responseId } });
    await runFailed(`follow-up-${operation.id}`);
    expect(await db().operation.findUniqueOrThrow({ where: { id: operation.id } })).toMatchObject({ status: "pending", outcomeUnknownSince: null });
    // Its original event id starts nothing any more; while the first run may still be retrying, no fresh one either.
    expect((await resendStalledEvents({ now: new Date(Date.now() + 2 * 60_000) })).redriven).toEqual([]);
    const later = await resendStalledEvents({ now: new Date(Date.now() + REDRIVE_AFTER_MS + 60_000) });
    expect(later.redriven).toEqual([`operation:${operation.id}`]);
    expect((await waitForNotification(world, responseId)).body).toMatchObject({ status: "approved" });
    await settle(world, paymentId);
    await expectTotalsMatchLedger(world, paymentId);
    expect(notificationsFor(world, responseId)).toHaveLength(1);
    expect((await resendStalledEvents({ now: new Date(Date.now() + 2 * REDRIVE_AFTER_MS) })).redriven).toEqual([]);
  });

  it(`is re-driven at most ${MAX_REDRIVES} times with back-off; then an operator is alerted once and the row is left alone`, async () => {
    const { paymentId, amount } = await authorizedPayment(world, "bambora");
    armFaultPoint("follow-up.before-call", TRIES_PER_RUN * (MAX_REDRIVES + 1));
    const responseId = await requestFollowUp(world, paymentId, "capture", amount);
    const operation = await db().operation.findFirstOrThrow({ where: { responseId } });
    await runFailed(`follow-up-${operation.id}`);
    let now = Date.now() + REDRIVE_AFTER_MS + 60_000;
    for (let attempt = 1; attempt <= MAX_REDRIVES; attempt++) {
      // Too soon after the last re-drive: left alone.
      if (attempt > 1) expect((await resendStalledEvents({ now: new Date(now - 60_000 * 2) })).redriven).toEqual([]);
      expect((await resendStalledEvents({ now: new Date(now) })).redriven).toEqual([`operation:${operation.id}`]);
      await runFailed(`follow-up-${operation.id}-redrive-${attempt}`);
      now += REDRIVE_AFTER_MS * attempt + 60_000;
    }
    const logged = captureLogs();
    let last;
    try {
      last = await resendStalledEvents({ now: new Date(now) });
    } finally {
      logged.stop();
    }
    expect(last).toMatchObject({ redriven: [], gaveUp: [`operation:${operation.id}`] });
    expect(logged.entries().filter((entry) => entry.level === 50 && String(entry.msg).includes(operation.id))).toHaveLength(1);
    expect(await resendStalledEvents({ now: new Date(now + 24 * 60 * 60_000) })).toMatchObject({ redriven: [], gaveUp: [] });
    expect(await db().operation.findUniqueOrThrow({ where: { id: operation.id } })).toMatchObject({ status: "pending" });
  }, 180_000);
});

describe("the batch", () => {
  it("is never filled with rows it cannot fix: given-up rows are skipped, the oldest fixable row comes first", async () => {
    const stuck = await createTestPayment({ merchantId: world.merchant.merchantId, status: "AUTHORIZED", processor: "finaro" });
    const old = new Date(Date.now() - 60 * 60_000);
    for (let index = 0; index < 3; index++) {
      const id = newId();
      await db().operation.create({
        data: { id, paymentId: stuck.paymentId, type: "capture", amount: 1n, currency: "DKK", responseId: newId(), createdAt: new Date(old.getTime() - (index + 1) * 60_000) },
      });
      await db().stalledWorkRedrive.create({ data: { subject: `operation:${id}`, attempts: MAX_REDRIVES + 1, lastAt: old, gaveUpAt: old } });
    }
    const { paymentId } = await createTestPayment({ merchantId: world.merchant.merchantId, status: "AUTHORIZED", processor: "finaro" });
    const fixable = newId();
    await db().operation.create({ data: { id: fixable, paymentId, type: "capture", amount: 1n, currency: "DKK", responseId: newId(), createdAt: old } });
    const resent = await resendStalledEvents({ limit: 1 });
    expect(resent.redriven).toEqual([`operation:${fixable}`]);
    await settle(world, paymentId);
  });
});
