// One ordering rule for every copy of a notification (docs/integration.md, "Notifications"; decision
// 0155): nothing of a payment reaches the merchant's addresses or any webhook endpoint before its
// completion is acknowledged, then each receiver gets the payment's state changes in the order they
// happened, and a receiver that refuses holds back only its own; a Resend, a later success or a
// give-up of what they wait behind releases them at once, in whichever process. A
// notification held back has no run waiting for it, so the stalled-work job never mistakes it for a
// dead run (money review N6). Real receivers on 127.0.0.1, a real window paid over HTTP, the
// merchant API over HTTP, the embedded executor on its test clock (never advanced here: whatever
// goes out, goes out because something released it, not because a sleep ended).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { resendNotification } from "@/lib/backoffice/actions/resend-notification";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { completionNotificationId } from "@/lib/notifications/send-completion-notification";
import { createWebhookEndpoint } from "@/lib/notifications/webhook-endpoints";
import { captureLogs } from "@/lib/observability/logger";
import { MAX_REDRIVES, REDRIVE_AFTER_MS, resendStalledEvents } from "@/lib/payments/resend-stalled-events";
import { createUser } from "@/lib/users/create-user";
import { startNotificationReceiver, type NotificationReceiver, type ReceivedNotification } from "@/tests/helpers/notification-receiver";
import { eventually } from "@/tests/helpers/eventually";
import { authorizeWithCard, fieldsCard, startWindowPayment, useHostedFieldsServer } from "@/tests/helpers/hosted-fields-window";
import { createTestSession } from "@/tests/helpers/session-factory";
import { currencyAt, operationFor, requestFollowUp, setUpFaultWorld, uniqueAmount, type FaultWorld } from "@/tests/helpers/fault-harness";

const world: FaultWorld = setUpFaultWorld({ functions: async () => merchantApiFunctions });
/** How soon after the completion's acknowledgement what waited behind it must arrive (a loaded 2-core machine included). */
const RELEASED_WITHIN_MS = 10_000;

const hostedFields = useHostedFieldsServer();
/** The shop's completion receiver, which refuses until told otherwise; the ledger endpoint is another path of the same server. */
let shop: NotificationReceiver;
let owner: Actor;

beforeAll(async () => {
  shop = await startNotificationReceiver();
  const user = await createUser({ merchantId: world.merchant.merchantId, email: "owner@example.com", name: "Owner", password: "long enough password", role: "OWNER" });
  owner = { userId: user.id, merchantId: world.merchant.merchantId, mode: "test", role: "OWNER" };
  // A ledger service subscribed to captures and refunds (newcomer review N2), on the shop's host.
  await db().$transaction((tx) =>
    createWebhookEndpoint({ merchantId: world.merchant.merchantId, input: { mode: "test", url: `${shop.url.replace("/notify", "")}/ep-ledger`, kinds: ["capture", "refund"] }, tx }),
  );
});
afterAll(async () => {
  await shop?.close();
});

/** A window paid with an approved card whose completion goes to the shop's /completion. */
async function payWindow() {
  const amount = uniqueAmount();
  const session = await createTestSession(world.merchant.merchantId, {
    amount: BigInt(amount),
    currency: currencyAt("clearhaus"),
    processors: ["clearhaus"],
    notificationUrl: `${shop.url.replace("/notify", "")}/completion`,
  });
  const paymentId = await startWindowPayment(hostedFields, session.id);
  const paid = await authorizeWithCard(hostedFields, session.id, paymentId, fieldsCard());
  expect(paid).toMatchObject({ result: "approved", paymentid: paymentId });
  return { sessionId: session.id, paymentId, amount };
}

/** A window paid with an approved card whose completion goes to the shop's /completion (refusing now). */
async function paidWindow() {
  const { sessionId, paymentId, amount } = await payWindow();
  const completionId = completionNotificationId(sessionId);
  // Its immediate attempt was refused; the retry sleeps on the executor's clock, which stays still.
  await until(async () => (await db().notificationAttempt.count({ where: { notificationId: completionId } })) > 0, "the completion's first attempt");
  return { sessionId, paymentId, amount, completionId };
}

/** A paid window whose completion the shop acknowledged. */
async function paidWindowAcknowledged() {
  const { sessionId, paymentId, amount } = await payWindow();
  await until(async () => (await db().notification.findUniqueOrThrow({ where: { id: completionNotificationId(sessionId) } })).status === "delivered", "the completion");
  return { paymentId, amount };
}

/** Waits through the project's one wait helper (tests/helpers/eventually.ts). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  await eventually(check, { what, timeoutMs, intervalMs: 50 });
}

/** A capture, then a refund, through the merchant API; each run to its acquirer's answer and its notification stored. */
async function captureThenRefund(paymentId: string, amount: number) {
  const capture = await requestFollowUp(world, paymentId, "capture", amount);
  await until(async () => (await operationFor(capture)).status === "approved", "the capture");
  const refund = await requestFollowUp(world, paymentId, "refund", 100);
  await until(async () => (await operationFor(refund)).status === "approved", "the refund");
  const ids = [`msg_operation_${(await operationFor(capture)).id}`, `msg_operation_${(await operationFor(refund)).id}`];
  await until(async () => (await db().notification.count({ where: { id: { in: ids } } })) === 2, "their notifications");
  return { capture, refund, notificationIds: ids };
}

/** What the merchant's default address and the ledger endpoint received for these responseids, in order. */
function receivedFor(responseIds: string[]) {
  const pick = (requests: ReceivedNotification[]) => requests.filter((request) => responseIds.includes(String(request.body.responseid)));
  return {
    main: pick(world.receiver.received),
    endpoint: pick(shop.received).filter((request) => request.path === "/ep-ledger"),
  };
}

/** Lets the executor run whatever is due now (its clock stays still) for a moment of real time. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("one ordering rule for the merchant's addresses and every webhook endpoint (newcomer review N2)", () => {
  it("a capture and a refund wait at the default address and at the endpoint while the completion is refused; a Resend that is acknowledged releases them within seconds, in order", async () => {
    shop.defaultAnswer = { status: 500 };
    const { paymentId, amount, completionId } = await paidWindow();
    const { capture, refund } = await captureThenRefund(paymentId, amount);

    // Nothing overtakes the refused completion: not at the default address (another host), not at the endpoint.
    await pause(3_000);
    expect(receivedFor([capture, refund])).toEqual({ main: [], endpoint: [] });

    // The shop is fixed; the merchant presses Resend on the completion.
    shop.defaultAnswer = { status: 200 };
    const resent = await resendNotification({ actor: owner, input: { notificationId: completionId } });
    expect(resent).toMatchObject({ delivered: true, statusCode: 200 });
    const acknowledged = shop.received.filter((request) => request.path === "/completion").at(-1)!.receivedAt;

    const deadline = Date.now() + RELEASED_WITHIN_MS;
    while (receivedFor([capture, refund]).main.length < 2 || receivedFor([capture, refund]).endpoint.length < 2) {
      if (Date.now() > deadline) throw new Error(`not released within ${RELEASED_WITHIN_MS} ms: ${JSON.stringify(receivedFor([capture, refund]))}`);
      await pause(50);
    }
    const { main, endpoint } = receivedFor([capture, refund]);
    for (const copies of [main, endpoint]) {
      expect(copies.map((request) => request.body.responseid)).toEqual([capture, refund]);
      for (const request of copies) {
        expect(request.receivedAt).toBeGreaterThanOrEqual(acknowledged);
        expect(request.receivedAt - acknowledged).toBeLessThan(RELEASED_WITHIN_MS);
      }
    }
    // Copies are copies: their own webhook-id, the original's bytes.
    expect(endpoint.map((request) => request.rawBody)).toEqual(main.map((request) => request.rawBody));
    expect(endpoint[0]!.headers["webhook-id"]).not.toBe(main[0]!.headers["webhook-id"]);
  });

  it("a completion that gives up (its last attempt refused) releases what waited behind it at once", async () => {
    shop.defaultAnswer = { status: 500 };
    const { paymentId, amount, completionId } = await paidWindow();
    const { capture, refund } = await captureThenRefund(paymentId, amount);
    await pause(1_000);
    expect(receivedFor([capture, refund]).main).toEqual([]);
    // The schedule's last attempt (24 h later), refused.
    expect(await deliverNotificationAttempt({ notificationId: completionId, attemptNumber: 8 })).toMatchObject({ delivered: false });
    expect(await db().notification.findUniqueOrThrow({ where: { id: completionId } })).toMatchObject({ status: "failed" });
    // The ledger endpoint (on the shop's host) takes what it is sent from now on.
    shop.defaultAnswer = { status: 200 };
    await until(async () => receivedFor([capture, refund]).main.length === 2 && receivedFor([capture, refund]).endpoint.length === 2, "the release", RELEASED_WITHIN_MS);
    expect(receivedFor([capture, refund]).main.map((request) => request.body.responseid)).toEqual([capture, refund]);
  });
});

describe("after the completion, each receiver in order, and a refusing one holds back only its own", () => {
  it("a capture refused at another host and the endpoint's refused copies hold back nothing at the default address; the endpoint's refund waits for its capture", async () => {
    shop.defaultAnswer = { status: 200 };
    const { paymentId, amount } = await paidWindowAcknowledged();
    // The capture's result goes to a host that refuses (the shop's ledger endpoint refuses too).
    const refusing = await startNotificationReceiver();
    try {
      refusing.defaultAnswer = { status: 503 };
      shop.defaultAnswer = { status: 503 };
      const captured = await world.api.call("POST", `/api/${paymentId}/capture`, {
        apiKey: world.merchant.apiKey,
        body: { amount, notificationurl: `${refusing.url}/captures` },
      });
      const capture = String(captured.body.responseid);
      await until(async () => (await operationFor(capture)).status === "approved", "the capture");
      await until(async () => refusing.received.some((request) => request.body.responseid === capture), "the refused capture notification");
      const refund = await requestFollowUp(world, paymentId, "refund", 100);
      // The default address (another host) gets the refund although the capture is still refused there.
      await until(async () => receivedFor([refund]).main.length === 1, "the refund at the default address", RELEASED_WITHIN_MS);
      // The endpoint refuses its capture copy: its refund copy waits for it, and goes once it is acknowledged.
      await pause(1_000);
      expect(shop.received.filter((request) => request.path === "/ep-ledger" && request.body.responseid === refund)).toEqual([]);
      shop.defaultAnswer = { status: 200 };
      const endpointCapture = (await db().notification.findFirstOrThrow({ where: { paymentId, copyOfId: { not: null }, kind: "capture" } })).id;
      expect(await resendNotification({ actor: owner, input: { notificationId: endpointCapture } })).toMatchObject({ delivered: true });
      await until(async () => receivedFor([refund]).endpoint.length === 1, "the endpoint's refund", RELEASED_WITHIN_MS);
    } finally {
      await refusing.close();
    }
  });
});

describe("a notification held back is waiting, not stalled (money review N6)", () => {
  it("has no run while it waits, is never re-driven or alerted by the stalled-work job, and goes out once when released", async () => {
    shop.defaultAnswer = { status: 503 };
    const { paymentId, amount, completionId } = await paidWindow();
    const { capture } = await captureThenRefund(paymentId, amount);
    await pause(1_000);
    // The capture's and the refund's results, to the default address and to the ledger endpoint.
    const notificationIds = (await db().notification.findMany({ where: { paymentId, kind: { not: "completion" } }, select: { id: true } })).map((row) => row.id);
    expect(notificationIds).toHaveLength(4);

    // No run sleeps for it: its release starts one.
    const runsWaiting = async () =>
      (await db().inngestRun.findMany({ where: { status: { in: ["queued", "running", "sleeping"] } }, select: { event: true } })).filter((run) =>
        notificationIds.includes(String((run.event as { data?: { notificationId?: string } }).data?.notificationId)),
      );
    await until(async () => (await runsWaiting()).length === 0, "no run waiting for them");
    expect(await db().notification.count({ where: { id: { in: notificationIds }, heldBackAt: { not: null }, nextAttemptAt: null, attemptCount: 0 } })).toBe(4);

    // The stalled-work job, every round for hours of a refusing receiver: never a re-drive, never an alert, for them.
    const logged = captureLogs();
    let now = Date.now() + REDRIVE_AFTER_MS + 60_000;
    try {
      for (let round = 0; round <= MAX_REDRIVES + 1; round++) {
        const result = await resendStalledEvents({ now: new Date(now) });
        for (const id of notificationIds) {
          expect(result.redriven).not.toContain(`notification:${id}`);
          expect(result.gaveUp).not.toContain(`notification:${id}`);
          expect(result.notificationIds).not.toContain(id);
        }
        now += REDRIVE_AFTER_MS * (round + 1) + 60_000;
      }
    } finally {
      logged.stop();
    }
    expect(logged.entries().filter((entry) => notificationIds.some((id) => String(entry.msg).includes(id)))).toEqual([]);
    expect(await db().stalledWorkRedrive.count({ where: { subject: { in: notificationIds.map((id) => `notification:${id}`) } } })).toBe(0);

    shop.defaultAnswer = { status: 200 };
    expect(await resendNotification({ actor: owner, input: { notificationId: completionId } })).toMatchObject({ delivered: true });
    await until(async () => receivedFor([capture]).main.length === 1, "the capture's result", RELEASED_WITHIN_MS);
    await until(async () => (await db().notification.count({ where: { id: { in: notificationIds }, status: "delivered" } })) === 4, "all delivered", RELEASED_WITHIN_MS);
    await pause(1_000);
    expect(receivedFor([capture]).main).toHaveLength(1);
  });
});
