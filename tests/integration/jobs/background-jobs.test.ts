// Background work in lib/jobs: the cron functions run once per schedule across executors on one
// database, the card-update feed position is a database row, and work whose event was lost is
// re-sent from the rows alone, the request's own notificationurl included.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { config, resetConfig } from "@/lib/env";
import { TestClock } from "@cps/inngest-embedded";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { scheduledFunctions } from "@/lib/jobs/scheduled";
import { everyMinuteFunctions } from "@/tests/helpers/every-minute-functions";
import { advanceCardUpdateCursor } from "@/lib/payments/advance-card-update-cursor";
import { resendStalledEvents } from "@/lib/payments/resend-stalled-events";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createCapturedCardPayment, createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually, quietFor } from "@/tests/helpers/eventually";

useTestDatabase();

let sandboxes: RunningSandboxes;
beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
});
afterAll(async () => {
  await sandboxes?.close();
});

let harness: InngestHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.stop();
  harness = undefined;
});

async function runsPerFunction(): Promise<Record<string, string[]>> {
  const runs = await db().inngestRun.findMany({
    where: { functionId: { in: scheduledFunctions.map((fn) => `${inngest.id}-${fn.id()}`) } },
    select: { functionId: true, status: true },
  });
  const counts: Record<string, string[]> = {};
  for (const run of runs) (counts[run.functionId.slice(inngest.id.length + 1)] ??= []).push(run.status);
  return counts;
}

describe("cron jobs", () => {
  it("two executors on one database run every cron job once per minute", async () => {
    // Each executor's first pass sets the time its fire times count from (none is back-filled):
    // the clock moves only once both made one.
    const passes = [0, 0];
    harness = await startInngestHarness({
      functions: scheduledFunctions,
      clock: new TestClock(new Date("2026-03-02T10:00:30.000Z")),
      executor: { onPoll: (error) => void (error === undefined && passes[0]!++) },
    });
    harness.startExecutor({ onPoll: (error) => void (error === undefined && passes[1]!++) }); // a second service process on the same database
    await eventually(() => passes.every((count) => count > 0), { what: "both executors' first passes", timeoutMs: 30_000, intervalMs: 25 });
    await harness.waitUntilIdle();
    expect(await runsPerFunction()).toEqual({}); // nothing back-filled from before the start

    for (let minute = 1; minute <= 3; minute++) {
      harness.advance("1m");
      await eventually(
        async () => {
          const counts = await runsPerFunction();
          const done = Object.values(counts)
            .flat()
            .filter((status) => status === "completed").length;
          return done >= everyMinuteFunctions.length * minute;
        },
        { timeoutMs: 30_000, intervalMs: 50, onTimeout: "return" },
      );
      await harness.waitUntilIdle();
    }
    await quietFor(500, "a duplicate run, were one started, has the time to show up");
    await harness.waitUntilIdle();
    const completedThrice = ["completed", "completed", "completed"];
    expect(await runsPerFunction()).toEqual({
      "poll-card-updates": completedThrice,
      "reconcile-timed-out-authorizations": completedThrice,
      "reconcile-indeterminate-operations": completedThrice,
      "resend-stalled-events": completedThrice,
      "finish-stuck-payments": completedThrice,
    });
  });
});

describe("a quiet minute", () => {
  it("costs each every-minute job one call: no step recorded and no retry when there is nothing to do (decision 0227)", async () => {
    // An empty database: no accounts to poll, nothing stuck, stalled or unknown.
    await db().inngestRun.deleteMany({});
    // The clock moves only once the executor's first pass is done: that pass sets the time from
    // which fire times count, and a fire time before it is not back-filled (a busy CI machine
    // can take longer than waitUntilIdle's two looks to make it).
    let passes = 0;
    harness = await startInngestHarness({
      functions: scheduledFunctions,
      clock: new TestClock(new Date("2026-03-02T11:00:30.000Z")),
      executor: { onPoll: (error) => void (error === undefined && passes++) },
    });
    await eventually(() => passes > 0, { what: "the executor's first pass", timeoutMs: 30_000, intervalMs: 25 });
    harness.advance("1m");
    await eventually(
      async () => Object.values(await runsPerFunction()).flat().filter((status) => status === "completed").length >= everyMinuteFunctions.length,
      { what: "every every-minute job completed once", timeoutMs: 30_000, intervalMs: 50 },
    );
    await harness.waitUntilIdle();
    const runs = await db().inngestRun.findMany({
      where: { functionId: { in: everyMinuteFunctions.map((fn) => `${inngest.id}-${fn.id()}`) } },
      select: { functionId: true, status: true, attempts: true, _count: { select: { steps: true, jobs: true } } },
    });
    expect(runs).toHaveLength(everyMinuteFunctions.length);
    // A step would be a row of its own (and a second call to learn the function returned).
    for (const run of runs) expect({ run: run.functionId, status: run.status, attempts: run.attempts, ...run._count }).toEqual({ run: run.functionId, status: "completed", attempts: 0, steps: 0, jobs: 0 });
  });
});

describe("card updates", () => {
  it("read on from the account's cursor in the database, so a restarted or second instance does not start over", async () => {
    const lifecycle = await startNotificationReceiver();
    try {
      const merchant = await createTestMerchant({ defaultNotificationUrl: lifecycle.url, lifecycleNotificationUrl: lifecycle.url });
      const par = "V0010013018036776485736361001";
      await createTestPayment({
        merchantId: merchant.merchantId,
        merchantPaymentId: "cursor1",
        processor: "clearhaus",
        withStoredCard: { par },
      });
      const report = async (body: Record<string, unknown>) => {
        const response = await fetch(`${sandboxes.urls.clearhaus}/sandbox/card-updates`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(201);
      };
      const { id: accountId } = await db().acquirerAccount.findFirstOrThrow({
        where: { merchantId: merchant.merchantId, processor: "clearhaus" },
      });
      const cursor = async () => (await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId } })).cardUpdatesSince!;
      await report({ par, kind: "expiry", newExpMonth: 9, newExpYear: 2033 });

      const first = await advanceCardUpdateCursor({ accountId });
      expect(first).toMatchObject({ processor: "clearhaus", polled: true, notifications: 1 });
      const row = { since: await cursor() };
      expect(row.since.toISOString()).toBe(first.since);

      // Another instance (or this one after a restart) read the feed up to an hour from now: the
      // next run reads on from that row, so an update reported meanwhile is not read again from the start.
      const ahead = new Date(Date.now() + 3600_000);
      await db().acquirerAccount.update({ where: { id: accountId }, data: { cardUpdatesSince: ahead } });
      await report({ par, kind: "closed" });
      const second = await advanceCardUpdateCursor({ accountId });
      expect(second).toMatchObject({ polled: true, notifications: 0, since: ahead.toISOString() });

      // Moved back to where the first run stopped, it picks the new update up, and the cursor never moves back.
      await db().acquirerAccount.update({ where: { id: accountId }, data: { cardUpdatesSince: row.since } });
      const third = await advanceCardUpdateCursor({ accountId });
      expect(third).toMatchObject({ polled: true, notifications: 1 });
      expect((await cursor()).getTime()).toBeGreaterThanOrEqual(row.since.getTime());
    } finally {
      await lifecycle.close();
    }
  });
});

describe("lost events", () => {
  let api: MerchantApiHarness;
  let configured: NotificationReceiver;
  let requested: NotificationReceiver;
  beforeAll(async () => {
    api = await startMerchantApi();
    [configured, requested] = await Promise.all([startNotificationReceiver(), startNotificationReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([configured?.close(), requested?.close(), api?.close()]);
  });

  it("a capture whose event was lost after the commit is answered, then re-sent and notified at the request's own notificationurl", async () => {
    harness = await startInngestHarness({ functions: merchantApiFunctions });
    const merchant = await createTestMerchant({ defaultNotificationUrl: configured.url });
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 700n, processor: "clearhaus" });

    // With an Inngest server too, the event is a row of the capture's own transaction, forwarded
    // after the commit (issue 29). The server's event API is unreachable once: the capture is
    // committed and its event row stays for the relay. The embedded executor is held while the
    // service is in server mode, so that it does not run the row meanwhile.
    await harness.executor.stop();
    const savedDev = process.env.INNGEST_DEV;
    process.env.INNGEST_DEV = "http://127.0.0.1:9/";
    resetConfig();
    let response: Awaited<ReturnType<typeof api.call<Record<string, unknown>>>>;
    try {
      expect(config().inngestMode).toBe("server");
      vi.spyOn(inngest, "send").mockRejectedValueOnce(new Error("event API unreachable"));
      response = await api.call("POST", `/api/${paymentId}/capture`, {
        apiKey: merchant.apiKey,
        body: { amount: 700, notificationurl: requested.url },
      });
    } finally {
      if (savedDev === undefined) delete process.env.INNGEST_DEV;
      else process.env.INNGEST_DEV = savedDev;
      resetConfig();
    }
    expect(response.status).toBe(200);
    const responseId = String(response.body.responseid);
    const operation = await db().operation.findFirstOrThrow({ where: { responseId } });
    expect(operation).toMatchObject({ status: "pending", notificationUrl: requested.url });
    const stored = { idempotencyKey: `follow-up-${operation.id}` };
    expect(await db().inngestEvent.count({ where: stored })).toBe(1); // not lost: left for the relay
    // Lost all the same (a database restored without it, a version that sent after the commit):
    // the stalled-work job is the last net.
    await db().inngestEvent.deleteMany({ where: stored });
    harness.startExecutor();
    await harness.waitUntilIdle();
    expect(await db().inngestRun.count({ where: { functionId: { endsWith: "run-follow-up-operation" } } })).toBe(0);

    // A minute later the stalled-work job finds it and sends its event again.
    await db().operation.update({ where: { id: operation.id }, data: { createdAt: new Date(Date.now() - 120_000) } });
    const resent = await resendStalledEvents();
    expect(resent.operationIds).toContain(operation.id);
    await requested.waitFor(1, 20_000);
    expect(requested.received[0]!.body).toMatchObject({ responseid: responseId, paymentid: paymentId });
    await harness.waitUntilIdle();
    expect(configured.received.filter((request) => request.body.responseid === responseId)).toHaveLength(0);
  });

  it("an MIT whose event was lost is re-sent from its row and authorized with the processor the request named", async () => {
    harness = await startInngestHarness({ functions: merchantApiFunctions });
    const merchant = await createTestMerchant({ defaultNotificationUrl: configured.url });
    const parent = await createCapturedCardPayment(merchant.merchantId, "clearhaus");
    vi.spyOn(inngest, "send").mockRejectedValueOnce(new Error("event API unreachable"));
    const response = await api.call("POST", "/api/mit", {
      apiKey: merchant.apiKey,
      body: {
        merchantid: merchant.merchantId,
        paymentid: parent.paymentId,
        amount: 1500,
        currency: "DKK",
        paymenttype: "unscheduled",
        processor: "clearhaus",
        notificationurl: requested.url,
      },
    });
    expect(response.status).toBe(200);
    const responseId = String(response.body.responseid);
    const payment = await db().payment.findFirstOrThrow({ where: { parentPaymentId: parent.paymentId } });
    expect(payment).toMatchObject({ status: "PENDING", requestedProcessor: "clearhaus", notificationUrl: requested.url });

    await db().payment.update({ where: { id: payment.id }, data: { createdAt: new Date(Date.now() - 120_000) } });
    const before = requested.received.length;
    const resent = await resendStalledEvents();
    expect(resent.mitPaymentIds).toContain(payment.id);
    await requested.waitFor(before + 1, 20_000);
    expect(requested.received.at(-1)!.body).toMatchObject({ responseid: responseId, paymentid: payment.id, processor: "clearhaus" });
    expect((await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).not.toBe("PENDING");
  });
});
