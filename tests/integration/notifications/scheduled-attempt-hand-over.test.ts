// A scheduled notification attempt is one run and one call (decision 0223): a refused attempt's
// record hands the next attempt over in the same statement, as an event due when that attempt is,
// and a run that asks for an attempt the notification made already (a call replayed after a crash,
// a run of the earlier delivery function woken from its sleep) sends nothing and lets the schedule
// go on. These tests hold the merchant's side to it: never the same scheduled attempt twice, never
// a lost next attempt, no hand-over after a 200.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { deliverNotification } from "@/lib/jobs/deliver-notification";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { attemptEventId } from "@/lib/notifications/delivery-schedule";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { notificationCreated } from "@/lib/inngest/events/merchant-api";
import { sendEvent } from "@/lib/inngest/send-event";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const merchant = useTestMerchant();
let receiver: NotificationReceiver;

beforeEach(async () => {
  receiver = await startNotificationReceiver();
});
afterEach(async () => {
  await receiver?.close();
});

async function stored(): Promise<string> {
  return enqueueNotification({
    merchantId: merchant.merchantId,
    mode: "test",
    kind: "lifecycle",
    url: receiver.url,
    body: { paymentid: "p1", merchantpaymentid: "m1", change: "expiry" },
  });
}

/** The stored hand-over events of a notification's attempt (by their idempotency id), with their payloads. */
async function handOvers(notificationId: string, attemptNumber: number) {
  return db().$queryRaw<{ payload: { data: Record<string, unknown>; ts: number } }[]>`
    SELECT "payload" FROM "InngestEvent" WHERE "idempotencyKey" = ${attemptEventId(notificationId, attemptNumber)}`;
}

describe("a scheduled attempt hands the next one over with its record", () => {
  it("stores one event for attempt 2, due 3 s after the refused attempt ended, with the notification's next attempt time", async () => {
    receiver.defaultAnswer = { status: 500 };
    const id = await stored();
    const result = await deliverNotificationAttempt({ notificationId: id, attemptNumber: 1, schedule: true });
    expect(result).toMatchObject({ delivered: false, statusCode: 500 });
    const [attempt] = await db().notificationAttempt.findMany({ where: { notificationId: id } });
    const notification = await db().notification.findUniqueOrThrow({ where: { id } });
    expect(notification).toMatchObject({ status: "pending", attemptCount: 1 });
    const events = await handOvers(id, 2);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.data).toMatchObject({ notificationId: id, fromAttempt: 2, immediately: true });
    expect(events[0]!.payload.ts).toBe(notification.nextAttemptAt!.getTime());
    const wait = events[0]!.payload.ts - (attempt!.startedAt.getTime() + attempt!.durationMs);
    expect(wait).toBeGreaterThanOrEqual(3_000);
    expect(wait).toBeLessThan(3_100);
  });

  it("a replayed call of an attempt already made sends nothing and stores no second hand-over", async () => {
    receiver.defaultAnswer = { status: 500 };
    const id = await stored();
    await deliverNotificationAttempt({ notificationId: id, attemptNumber: 1, schedule: true });
    const replay = await deliverNotificationAttempt({ notificationId: id, attemptNumber: 1, schedule: true });
    expect(replay).toMatchObject({ delivered: false, repeated: true });
    expect(receiver.received).toHaveLength(1);
    expect(await db().notificationAttempt.count({ where: { notificationId: id } })).toBe(1);
    expect(await handOvers(id, 2)).toHaveLength(1);
    expect(await db().notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ attemptCount: 1, status: "pending" });
  });

  it("hands nothing over after the last attempt, nor when a 200 (a resend) won while the attempt was refused", async () => {
    receiver.defaultAnswer = { status: 500 };
    const last = await stored();
    await db().notification.update({ where: { id: last }, data: { attemptCount: 7 } });
    await deliverNotificationAttempt({ notificationId: last, attemptNumber: 8, schedule: true });
    expect(await db().notification.findUniqueOrThrow({ where: { id: last } })).toMatchObject({ status: "failed", attemptCount: 8, nextAttemptAt: null });
    expect(await db().inngestEvent.count({ where: { idempotencyKey: { startsWith: `notification-${last}-` } } })).toBe(0);

    // The scheduled attempt is slow and refused; a resend answered 200 meanwhile.
    const raced = await stored();
    receiver.script({ status: 500, delayMs: 300 }, { status: 200 });
    const scheduled = deliverNotificationAttempt({ notificationId: raced, attemptNumber: 1, schedule: true });
    await receiver.waitFor(1);
    expect(await deliverNotificationAttempt({ notificationId: raced, attemptNumber: "resend" })).toMatchObject({ delivered: true });
    expect(await scheduled).toMatchObject({ delivered: false, statusCode: 500 });
    expect(await db().notification.findUniqueOrThrow({ where: { id: raced } })).toMatchObject({ status: "delivered" });
    expect(await handOvers(raced, 2)).toHaveLength(0);
  });
});

describe("the delivery function", () => {
  let harness: InngestHarness;
  beforeEach(async () => {
    harness = await startInngestHarness({ functions: [deliverNotification] });
  });
  afterEach(async () => {
    await harness?.stop();
  });

  it("a run of the earlier version, woken at attempt 4 with attempts 2 and 3 made, sends no attempt again and hands attempt 4 over at once", async () => {
    receiver.defaultAnswer = { status: 500 };
    const id = await stored();
    // What the earlier function left: the run started for attempt 2 made attempts 2 and 3 in
    // its own loop; its event still says attempt 2.
    await db().notification.update({ where: { id }, data: { attemptCount: 3, nextAttemptAt: new Date() } });
    await sendEvent({ type: notificationCreated, data: { notificationId: id, fromAttempt: 2, immediately: true }, id: `notification-${id}` });
    const [fourth] = await receiver.waitFor(1);
    await harness.waitUntilIdle();
    expect(receiver.received).toHaveLength(1);
    expect(fourth!.headers["webhook-id"]).toBe(id);
    const attempts = await db().notificationAttempt.findMany({ where: { notificationId: id } });
    expect(attempts.map((attempt) => attempt.attemptNumber)).toEqual([4]);
    expect(await db().notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ attemptCount: 4, status: "pending" });
    // Attempt 5 is an hour after attempt 4 ended: handed over, queued until then.
    const [fifth] = await handOvers(id, 5);
    const waitMs = fifth!.payload.ts - (attempts[0]!.startedAt.getTime() + attempts[0]!.durationMs);
    expect(waitMs).toBeGreaterThanOrEqual(3_600_000);
    expect(waitMs).toBeLessThan(3_600_100);
  });

  it("a call repeated after its hand-over (the run's end was never written) sends the attempt once", async () => {
    receiver.defaultAnswer = { status: 500 };
    const id = await stored();
    await sendEvent({ type: notificationCreated, data: { notificationId: id }, id: `notification-${id}` });
    await receiver.waitFor(1);
    await harness.waitUntilIdle();
    // The same event again under a fresh id: as if the run's call were made a second time.
    await sendEvent({ type: notificationCreated, data: { notificationId: id }, id: `notification-${id}-replayed` });
    await harness.waitUntilIdle();
    expect(receiver.received).toHaveLength(1);
    expect(await handOvers(id, 2)).toHaveLength(1);
    const runs = await db().inngestRun.findMany({
      where: { functionId: { endsWith: "deliver-merchant-notification" }, event: { path: ["data", "notificationId"], equals: id } },
      orderBy: { startedAt: "asc" },
    });
    // The two runs of attempt 1, completed; the run of attempt 2, queued until it is due.
    expect(runs.map((run) => run.status).sort()).toEqual(["completed", "completed", "queued"]);
    expect(runs.filter((run) => run.status === "completed").map((run) => run.output)).toEqual(
      expect.arrayContaining([
        { notificationId: id, delivered: false, attempt: 1, next: 2 },
        { notificationId: id, delivered: false, attempt: 1, repeated: true },
      ]),
    );
  });
});
