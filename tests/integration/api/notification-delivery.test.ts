// Delivery of merchant notifications through the real embedded executor and a local receiver:
// the whole schedule of spec 6.2 on the executor's test clock, acknowledgement only by HTTP 200,
// per-attempt time-outs, every attempt recorded, and the Standard Webhooks signature.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { deliverNotification } from "@/lib/jobs/deliver-notification";
import { dispatchNotification, enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

const merchant = useTestMerchant();
let receiver: NotificationReceiver;
let harness: InngestHarness;

beforeEach(async () => {
  receiver = await startNotificationReceiver();
  harness = await startInngestHarness({ functions: [deliverNotification] });
});
afterEach(async () => {
  await harness?.stop();
  await receiver?.close();
});

async function send(body: object = { paymentid: "p1", merchantpaymentid: "m1", change: "expiry" }): Promise<string> {
  const id = await enqueueNotification({ merchantId: merchant.merchantId, mode: "test" as const, kind: "lifecycle", url: receiver.url, body });
  await dispatchNotification(id);
  return id;
}

async function attempts(notificationId: string) {
  return db().notificationAttempt.findMany({ where: { notificationId }, orderBy: { attemptNumber: "asc" } });
}

/**
 * After a refused attempt: the run of the next one (decision 0223), queued until its due time (its
 * event's ts, decision 0222). Returns that time and the wait from the end of the refused attempt.
 */
async function nextAttempt(notificationId: string, attemptNumber: number): Promise<{ dueAt: Date; waitMs: number }> {
  const run = (await eventually(
    () =>
      db().inngestRun.findFirst({
        where: {
          functionId: { endsWith: "deliver-merchant-notification" },
          status: "queued",
          AND: [
            { event: { path: ["data", "notificationId"], equals: notificationId } },
            { event: { path: ["data", "fromAttempt"], equals: attemptNumber } },
          ],
        },
      }),
    { what: `the queued run of attempt ${attemptNumber}` },
  ))!;
  const record = await db().notification.findUniqueOrThrow({ where: { id: notificationId } });
  expect(record).toMatchObject({ status: "pending", attemptCount: attemptNumber - 1 });
  const [before] = await db().notificationAttempt.findMany({ where: { notificationId, attemptNumber: attemptNumber - 1 } });
  // The notification's next attempt time is the run's: one value, written with the attempt.
  expect(run.nextWakeAt).toEqual(record.nextAttemptAt);
  return { dueAt: run.nextWakeAt!, waitMs: run.nextWakeAt!.getTime() - (before!.startedAt.getTime() + before!.durationMs) };
}

/** The test clock to `at` (the due times are the real clock's), and the executors woken. */
function moveClockTo(at: number): void {
  harness.clock.advanceTo(new Date(at));
  harness.advance(0);
}

describe("delivery schedule", () => {
  it("attempts at once, 3 times 3 s apart, 3 times 1 h apart, once after 24 h, then gives up", async () => {
    receiver.defaultAnswer = { status: 500 };
    const id = await send();
    const expectedWaits = [3_000, 3_000, 3_000, 3_600_000, 3_600_000, 3_600_000, 86_400_000];
    for (const [index, wait] of expectedWaits.entries()) {
      await receiver.waitFor(index + 1);
      const next = await nextAttempt(id, index + 2);
      // Counted from the end of the attempt before (the milliseconds of recording it at most).
      expect(next.waitMs).toBeGreaterThanOrEqual(wait);
      expect(next.waitMs).toBeLessThan(wait + 100);
      // Nothing happens a moment before the wait is over...
      moveClockTo(next.dueAt.getTime() - 100);
      await harness.waitUntilIdle();
      expect(receiver.received).toHaveLength(index + 1);
      // ...and the next attempt comes when it is.
      moveClockTo(next.dueAt.getTime());
    }
    await receiver.waitFor(8);
    await harness.waitUntilIdle();
    // One run per attempt, each one call: no step and no sleep.
    const runs = await db().inngestRun.findMany({
      where: { functionId: { endsWith: "deliver-merchant-notification" }, event: { path: ["data", "notificationId"], equals: id } },
      include: { steps: true },
    });
    expect(runs).toHaveLength(8);
    expect(runs.every((run) => run.status === "completed" && run.steps.length === 0)).toBe(true);
    harness.advance("48h");
    await harness.waitUntilIdle();
    expect(receiver.received).toHaveLength(8);
    const recorded = await attempts(id);
    expect(recorded.map((attempt) => attempt.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(recorded.every((attempt) => attempt.statusCode === 500 && attempt.error === "answered HTTP 500; only 200 acknowledges")).toBe(
      true,
    );
    expect(recorded.every((attempt) => attempt.responseBody === "ok" && attempt.durationMs >= 0)).toBe(true);
    const notification = await db().notification.findUniqueOrThrow({ where: { id } });
    expect(notification).toMatchObject({ status: "failed", attemptCount: 8, deliveredAt: null, nextAttemptAt: null });
    // Every attempt carries the same id and the same bytes.
    expect(new Set(receiver.received.map((request) => request.headers["webhook-id"]))).toEqual(new Set([id]));
    expect(new Set(receiver.received.map((request) => request.rawBody)).size).toBe(1);
  });

  it("stops at the first HTTP 200; 201, 204 and redirects do not acknowledge", async () => {
    receiver.script({ status: 201 }, { status: 204 }, { status: 302 }, { status: 200 });
    const id = await send();
    await receiver.waitFor(1);
    await harness.runUntilIdle();
    expect(receiver.received).toHaveLength(4);
    const recorded = await attempts(id);
    expect(recorded.map((attempt) => attempt.statusCode)).toEqual([201, 204, 302, 200]);
    expect(recorded.at(-1)?.error).toBeNull();
    const notification = await db().notification.findUniqueOrThrow({ where: { id } });
    expect(notification.status).toBe("delivered");
    expect(notification.deliveredAt).not.toBeNull();
    expect(notification.attemptCount).toBe(4);
  });

  it("records a receiver that does not answer within 5 s as a timed-out attempt and retries", async () => {
    receiver.script({ delayMs: 6_500, status: 200 }, { status: 200 });
    const id = await send();
    await receiver.waitFor(1);
    const next = await nextAttempt(id, 2);
    expect(next.waitMs).toBeGreaterThanOrEqual(3_000);
    expect(next.waitMs).toBeLessThan(3_100);
    const [first] = await attempts(id);
    expect(first).toMatchObject({ attemptNumber: 1, statusCode: null, error: "no answer within 5000 ms" });
    expect(first!.durationMs).toBeGreaterThanOrEqual(4_900);
    expect(first!.durationMs).toBeLessThan(6_500);
    moveClockTo(next.dueAt.getTime());
    await receiver.waitFor(2);
    await harness.waitUntilIdle();
    expect((await db().notification.findUniqueOrThrow({ where: { id } })).status).toBe("delivered");
  }, 30_000);

  it("records an unreachable receiver as an error", async () => {
    const closed = await startNotificationReceiver();
    await closed.close();
    const id = await enqueueNotification({
      merchantId: merchant.merchantId, mode: "test" as const,
      kind: "lifecycle",
      url: closed.url,
      body: { paymentid: "x", merchantpaymentid: "", change: "expiry" },
    });
    await dispatchNotification(id);
    await nextAttempt(id, 2);
    const [first] = await attempts(id);
    expect(first?.statusCode).toBeNull();
    expect(first?.error).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe("signature", () => {
  it("signs every notification so the merchant can verify it with its secret", async () => {
    const id = await send({ paymentid: "abc", merchantpaymentid: "ord1", change: "pan" });
    const [request] = await receiver.waitFor(1);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["webhook-id"]).toBe(id);
    expect(request!.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const headers = {
      id: String(request!.headers["webhook-id"]),
      timestamp: String(request!.headers["webhook-timestamp"]),
      signature: String(request!.headers["webhook-signature"]),
    };
    expect(verifyNotificationSignature({ secret: merchant.notificationSecret, headers, body: request!.rawBody })).toBe(true);
    expect(
      verifyNotificationSignature({ secret: merchant.notificationSecret, headers, body: request!.rawBody.replace("abc", "abd") }),
    ).toBe(false);
    const other = await createTestMerchant();
    expect(verifyNotificationSignature({ secret: other.notificationSecret, headers, body: request!.rawBody })).toBe(false);
    expect(JSON.parse(request!.rawBody)).toEqual({ paymentid: "abc", merchantpaymentid: "ord1", change: "pan", mode: "test" });
  });
});
