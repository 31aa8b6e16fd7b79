// Notification URLs, the test notification, hosted integrations and the overview numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import type { Actor } from "@/lib/auth/actor";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { sendTestNotification } from "@/lib/backoffice/actions/send-test-notification";
import { saveHostedIntegration } from "@/lib/backoffice/actions/save-hosted-integration";
import { getOverviewStats } from "@/lib/backoffice/queries/overview-stats";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { getHostedIntegrationOrThrow } from "@/lib/backoffice/queries/list-hosted-integrations";

useTestDatabase();

let receiver: NotificationReceiver;
let owner: Actor;
let secret: string;

beforeAll(async () => {
  receiver = await startNotificationReceiver();
  const merchant = await createTestMerchant();
  secret = merchant.notificationSecret;
  const user = await createUser({ merchantId: merchant.merchantId, email: "owner@example.com", name: "Owner", password: "long enough password", role: "OWNER" });
  owner = { userId: user.id, merchantId: merchant.merchantId, mode: "test" as const, role: "OWNER" };
});

afterAll(async () => {
  await receiver.close();
});

const urls = (values: Partial<Record<"defaultNotificationUrl" | "completionNotificationUrl" | "lifecycleNotificationUrl", string>>) => ({
  currentPassword: "long enough password",
  defaultNotificationUrl: "",
  completionNotificationUrl: "",
  lifecycleNotificationUrl: "",
  ...values,
});

describe("notification URLs", () => {
  it("saves the three addresses, clears empty ones, and audits the change", async () => {
    await updateNotificationUrls({ actor: owner, input: urls({ defaultNotificationUrl: " https://shop.example/n ", lifecycleNotificationUrl: "https://shop.example/life" }) });
    // The owner acts in test mode: test mode's columns, the live ones untouched.
    const merchant = await db().merchant.findUniqueOrThrow({ where: { id: owner.merchantId } });
    expect(merchant).toMatchObject({ testDefaultNotificationUrl: "https://shop.example/n", testCompletionNotificationUrl: null, testLifecycleNotificationUrl: "https://shop.example/life" });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId: owner.merchantId, action: "settings.notification_urls.updated" } });
    expect(audit.details).toMatchObject({ after: { defaultNotificationUrl: "https://shop.example/n" } });
  });

  it("refuses addresses that are not absolute http(s) URLs or carry credentials", async () => {
    await expect(updateNotificationUrls({ actor: owner, input: urls({ defaultNotificationUrl: "shop.example/n" }) })).rejects.toThrow(/full address/);
    await expect(updateNotificationUrls({ actor: owner, input: urls({ completionNotificationUrl: "ftp://shop.example/n" }) })).rejects.toThrow(/http/);
    await expect(updateNotificationUrls({ actor: owner, input: urls({ lifecycleNotificationUrl: "https://user:pw@shop.example/n" }) })).rejects.toThrow(/password/);
  });
});

describe("sendTestNotification", () => {
  it("posts one signed test notification and returns the receiver's answer", async () => {
    const result = await sendTestNotification({ actor: owner, input: { url: `${receiver.url}/hook` } });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, responseBody: "ok" });
    const [received] = await receiver.waitFor(1);
    expect(received!.path.endsWith("/hook")).toBe(true);
    expect(received!.body).toMatchObject({ type: "test", merchantid: owner.merchantId });
    expect(
      verifyNotificationSignature({
        secret,
        headers: { id: String(received!.headers["webhook-id"]), timestamp: String(received!.headers["webhook-timestamp"]), signature: String(received!.headers["webhook-signature"]) },
        body: received!.rawBody,
      }),
    ).toBeTruthy();
    const notification = await db().notification.findUniqueOrThrow({ where: { id: result.notificationId }, include: { attempts: true } });
    expect(notification).toMatchObject({ kind: "test", status: "delivered", nextAttemptAt: null });
    expect(notification.attempts).toHaveLength(1);
  });

  it("shows a refusal and settles the test as failed without retries", async () => {
    receiver.script({ status: 500 });
    const result = await sendTestNotification({ actor: owner, input: { url: receiver.url } });
    expect(result).toMatchObject({ delivered: false, statusCode: 500 });
    expect(result.error).toMatch(/500/);
    const notification = await db().notification.findUniqueOrThrow({ where: { id: result.notificationId } });
    expect(notification).toMatchObject({ status: "failed", nextAttemptAt: null });
  });

  it("needs an address", async () => {
    await expect(sendTestNotification({ actor: owner, input: { url: "" } })).rejects.toThrow(/Enter an address/);
  });
});

describe("hosted integrations", () => {
  const base = { currentPassword: "long enough password", name: "Checkout", defaultNotificationUrl: "", completionNotificationUrl: "https://shop.example/done", lifecycleNotificationUrl: "" };

  it("creates and updates an integration with styling checked by the hosted fields' schema", async () => {
    const created = await saveHostedIntegration({ actor: owner, input: { ...base, hostedId: "checkout-1", styling: JSON.stringify({ color: "#112233", fontSize: "18px", placeholders: { pan: "Card" } }) } });
    let stored = await getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: created.id });
    expect(stored).toMatchObject({ hostedId: "checkout-1", completionNotificationUrl: "https://shop.example/done", styling: { color: "#112233", fontSize: "18px", placeholders: { pan: "Card" } } });
    await saveHostedIntegration({ actor: owner, input: { ...base, id: created.id, hostedId: "checkout-1", styling: JSON.stringify({ backgroundColor: "rgb(1, 2, 3)" }) } });
    stored = await getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: created.id });
    expect(stored.styling).toEqual({ backgroundColor: "rgb(1, 2, 3)" });
    expect(await db().auditEntry.count({ where: { merchantId: owner.merchantId, target: created.id } })).toBe(2);
  });

  it("refuses unsafe styling values, bad JSON and a hostedid already in use", async () => {
    await expect(saveHostedIntegration({ actor: owner, input: { ...base, hostedId: "x1", styling: JSON.stringify({ color: "red;}body{display:none" }) } })).rejects.toThrow(/CSS colour/);
    await expect(saveHostedIntegration({ actor: owner, input: { ...base, hostedId: "x2", styling: "{not json" } })).rejects.toThrow(/not valid JSON/);
    await expect(saveHostedIntegration({ actor: owner, input: { ...base, hostedId: "has space", styling: "{}" } })).rejects.toThrow(/letters, digits/);
    await expect(saveHostedIntegration({ actor: owner, input: { ...base, hostedId: "checkout-1", styling: "{}" } })).rejects.toThrow(/already used/);
  });

  it("keeps a 3-D Secure challenge preference (default: no preference) and refuses one EMV does not name as ours", async () => {
    const created = await saveHostedIntegration({ actor: owner, input: { ...base, hostedId: "challenge-1", styling: "{}" } });
    expect((await getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: created.id })).threeDsChallengePreference).toBe("no_preference");
    await saveHostedIntegration({ actor: owner, input: { ...base, id: created.id, hostedId: "challenge-1", styling: "{}", threeDsChallengePreference: "challenge_mandated" } });
    expect((await getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: created.id })).threeDsChallengePreference).toBe("challenge_mandated");
    // A save without the field (another form) leaves it as it was.
    await saveHostedIntegration({ actor: owner, input: { ...base, id: created.id, hostedId: "challenge-1", styling: "{}" } });
    expect((await getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: created.id })).threeDsChallengePreference).toBe("challenge_mandated");
    // 05 (risk analysis performed) is an exemption the service cannot claim (docs/decisions/0116): refused, nothing changes.
    await expect(
      saveHostedIntegration({ actor: owner, input: { ...base, id: created.id, hostedId: "challenge-1", styling: "{}", threeDsChallengePreference: "tra_performed" } }),
    ).rejects.toThrow(/no_preference, no_challenge, challenge_requested, challenge_mandated/);
    expect((await getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: created.id })).threeDsChallengePreference).toBe("challenge_mandated");
  });
});

describe("getOverviewStats", () => {
  it("counts payments, approvals and approved volume by day and processor, and notification delivery", async () => {
    const merchantId = (await createTestMerchant()).merchantId;
    const now = new Date("2026-11-21T12:00:00Z");
    const day1 = new Date("2026-11-20T08:00:00Z");
    const day2 = new Date("2026-11-21T09:00:00Z");
    const make = async (status: "CAPTURED" | "DECLINED" | "AUTHORIZED" | "PENDING", processor: "finaro" | "clearhaus", amount: bigint, at: Date) => {
      const { paymentId } = await createTestPayment({ merchantId, status, processor, amount, withStoredCard: false });
      await db().payment.update({ where: { id: paymentId }, data: { createdAt: at } });
    };
    await make("CAPTURED", "finaro", 1000n, day1);
    await make("DECLINED", "finaro", 500n, day1);
    await make("AUTHORIZED", "clearhaus", 2000n, day2);
    await make("PENDING", "clearhaus", 700n, day2);
    await make("CAPTURED", "finaro", 999n, new Date("2026-09-01T00:00:00Z")); // outside the 30 days
    await db().notification.createMany({
      data: [
        { id: "n1", merchantId, mode: "test" as const, kind: "completion", url: "https://x", body: "{}", status: "delivered", createdAt: day1 },
        { id: "n2", merchantId, mode: "test" as const, kind: "completion", url: "https://x", body: "{}", status: "failed", createdAt: day1 },
        { id: "n3", merchantId, mode: "test" as const, kind: "capture", url: "https://x", body: "{}", status: "delivered", createdAt: day2 },
        // A failed test notification (Settings → Notifications) is no delivery failure: counted apart.
        { id: "n4", merchantId, mode: "test" as const, kind: "test", url: "https://x", body: "{}", status: "failed", createdAt: day2 },
      ],
    });
    const stats = await getOverviewStats({ merchantId, mode: "test" as const, now });
    expect(stats.days).toHaveLength(30);
    expect(stats.days[29]).toBe("2026-11-21");
    const finaro = stats.rows.find((row) => row.processor === "finaro" && row.day === "2026-11-20")!;
    expect(finaro).toMatchObject({ payments: 2, approved: 1, decided: 2, approvedAmount: 1000n });
    const clearhaus = stats.rows.find((row) => row.processor === "clearhaus" && row.day === "2026-11-21")!;
    expect(clearhaus).toMatchObject({ payments: 2, approved: 1, decided: 1, approvedAmount: 2000n });
    expect(stats.currencies).toEqual([{ currency: "DKK", approvedAmount: 3000n, capturedAmount: 0n, refundedAmount: 0n, netAmount: 0n, payments: 4 }]);
    expect(stats.notifications).toMatchObject({ delivered: 2, retrying: 0, failed: 1, pending: 0, total: 3, tests: 1 });
  });
});

describe("getCachedOverviewStats", () => {
  it("serves one computation per merchant for a minute, then computes again", async () => {
    const { getCachedOverviewStats, OVERVIEW_CACHE_MS } = await import("@/lib/backoffice/queries/get-cached-overview-stats");
    const merchantId = (await createTestMerchant()).merchantId;
    const start = new Date();
    const first = await getCachedOverviewStats({ merchantId, mode: "test" as const, now: start });
    expect(first.stats.rows).toEqual([]);
    await createTestPayment({ merchantId, status: "CAPTURED", withStoredCard: false });
    const cached = await getCachedOverviewStats({ merchantId, mode: "test" as const, now: new Date(start.getTime() + 1000) });
    expect(cached.computedAt).toEqual(start);
    expect(cached.stats.rows).toEqual([]);
    const fresh = await getCachedOverviewStats({ merchantId, mode: "test" as const, now: new Date(start.getTime() + OVERVIEW_CACHE_MS + 1) });
    expect(fresh.stats.rows.reduce((sum, row) => sum + row.payments, 0)).toBe(1);
  });
});

describe("resendNotification (newcomer review F9)", () => {
  const webhookIds = (since: number) => receiver.received.slice(since).map((item) => String(item.headers["webhook-id"]));

  it("delivers the same notification again with the same webhook-id and bytes, and its scheduled retries then send nothing", async () => {
    const { resendNotification } = await import("@/lib/backoffice/actions/resend-notification");
    const { deliverNotificationAttempt } = await import("@/lib/notifications/deliver-notification-attempt");
    const { paymentId } = await createTestPayment({ merchantId: owner.merchantId, status: "CAPTURED" });
    const body = '{"paymentid":"p","status":"approved"}';
    await db().notification.create({ data: { id: "msg_retrying", merchantId: owner.merchantId, mode: "test" as const, paymentId, kind: "capture", url: receiver.url, body } });
    const before = receiver.received.length;
    receiver.script({ status: 503 });
    expect((await deliverNotificationAttempt({ notificationId: "msg_retrying", attemptNumber: 1 })).delivered).toBe(false);
    expect(await db().notification.findUniqueOrThrow({ where: { id: "msg_retrying" } })).toMatchObject({ status: "pending", attemptCount: 1, nextAttemptAt: expect.any(Date) });

    const result = await resendNotification({ actor: owner, input: { notificationId: "msg_retrying" } });
    expect(result).toMatchObject({ notificationId: "msg_retrying", delivered: true, statusCode: 200 });
    expect(webhookIds(before)).toEqual(["msg_retrying", "msg_retrying"]);
    expect(receiver.received.at(-1)!.rawBody).toBe(body);
    const resent = await db().notification.findUniqueOrThrow({ where: { id: "msg_retrying" }, include: { attempts: { orderBy: { attemptNumber: "asc" } } } });
    expect(resent).toMatchObject({ status: "delivered", nextAttemptAt: null, attemptCount: 1, deliveredAt: expect.any(Date) });
    expect(resent.attempts.map((attempt) => [attempt.attemptNumber, attempt.resend, attempt.statusCode])).toEqual([[1, false, 503], [9, true, 200]]);
    // No copy under a new id.
    expect(await db().notification.count({ where: { paymentId } })).toBe(1);

    // The delivery function wakes for its next scheduled attempt: nothing is sent any more.
    const afterResend = receiver.received.length;
    expect((await deliverNotificationAttempt({ notificationId: "msg_retrying", attemptNumber: 2 })).delivered).toBe(true);
    expect(receiver.received.length).toBe(afterResend);
    expect(await db().notificationAttempt.count({ where: { notificationId: "msg_retrying" } })).toBe(2);

    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId: owner.merchantId, action: "notification.resent", target: "msg_retrying" } });
    expect(audit).toMatchObject({ userId: owner.userId, details: { url: receiver.url, stateBefore: "retrying" } });
  });

  it("a refused resend leaves the schedule as it was; a delivered notification can be resent, again under its own id", async () => {
    const { resendNotification } = await import("@/lib/backoffice/actions/resend-notification");
    const nextAttemptAt = new Date(Date.now() + 3600_000);
    await db().notification.create({ data: { id: "msg_refused", merchantId: owner.merchantId, mode: "test" as const, kind: "capture", url: receiver.url, body: "{}", status: "pending", attemptCount: 4, nextAttemptAt } });
    receiver.script({ status: 500 });
    expect(await resendNotification({ actor: owner, input: { notificationId: "msg_refused" } })).toMatchObject({ delivered: false, statusCode: 500 });
    expect(await db().notification.findUniqueOrThrow({ where: { id: "msg_refused" } })).toMatchObject({ status: "pending", attemptCount: 4, nextAttemptAt });

    const before = receiver.received.length;
    await db().notification.create({ data: { id: "msg_done", merchantId: owner.merchantId, mode: "test" as const, kind: "capture", url: receiver.url, body: "{}", status: "delivered", attemptCount: 1 } });
    expect(await resendNotification({ actor: owner, input: { notificationId: "msg_done" } })).toMatchObject({ delivered: true });
    expect(await resendNotification({ actor: owner, input: { notificationId: "msg_done" } })).toMatchObject({ delivered: true });
    expect(webhookIds(before)).toEqual(["msg_done", "msg_done"]);
    const numbers = (await db().notificationAttempt.findMany({ where: { notificationId: "msg_done" }, orderBy: { attemptNumber: "asc" } })).map((attempt) => attempt.attemptNumber);
    expect(numbers).toEqual([9, 10]);
  });
});

describe("operateOnPayment", () => {
  it("asks the merchant API's use cases for a capture in minor units, and passes their refusals on", async () => {
    const { operateOnPayment } = await import("@/lib/backoffice/actions/operate-on-payment");
    const { runAction } = await import("@/lib/backoffice/action-result");
    await updateNotificationUrls({ actor: owner, input: urls({ defaultNotificationUrl: "https://shop.example/n" }) });
    const { paymentId } = await createTestPayment({ merchantId: owner.merchantId, status: "AUTHORIZED", amount: 10_000n });
    const { responseid } = await operateOnPayment({ actor: owner, input: { paymentId, operation: "capture", amount: "12.5", note: "from the back office" } });
    const capture = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    expect(capture).toMatchObject({ amount: 1250n, status: "pending", responseId: responseid, note: "from the back office" });
    expect(await db().auditEntry.count({ where: { merchantId: owner.merchantId, action: "payment.capture_requested", target: paymentId } })).toBe(1);

    const tooMuch = await runAction(async () => {
      await operateOnPayment({ actor: owner, input: { paymentId, operation: "capture", amount: "1000" } });
      return { message: "never" };
    });
    // The refusal reaches the form as a sentence next to the amount (lib/backoffice/describe-operation-error.ts).
    expect(tooMuch).toMatchObject({ status: "error", fieldErrors: { amount: tooMuch.message } });
    expect(tooMuch.message).toBe("The amount is more than the 87.50 DKK left to capture. Enter at most that, or leave the amount empty to capture it all.");
    await expect(operateOnPayment({ actor: owner, input: { paymentId, operation: "capture", amount: "1.234" } })).rejects.toThrow(/2 decimals/);
    expect(await db().operation.count({ where: { paymentId, type: "capture" } })).toBe(1);
  });

  it("keeps a refund's reason with the operation, and audits the amount the rules decided with its currency and the reason (issue 28)", async () => {
    const { operateOnPayment } = await import("@/lib/backoffice/actions/operate-on-payment");
    const { paymentId } = await createTestPayment({ merchantId: owner.merchantId, status: "CAPTURED", amount: 2_000n, currency: "EUR", captures: [2_000n] });
    const { responseid } = await operateOnPayment({ actor: owner, input: { paymentId, operation: "refund", amount: "", reason: "requested_by_customer" } });
    expect(await db().operation.findFirstOrThrow({ where: { paymentId, type: "refund" } })).toMatchObject({ amount: 2_000n, reason: "requested_by_customer", responseId: responseid });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId: owner.merchantId, action: "payment.refund_requested", target: paymentId } });
    expect(audit.details).toEqual({ responseid, amount: "2000", currency: "EUR", reason: "requested_by_customer", mode: "test" });
    await expect(operateOnPayment({ actor: owner, input: { paymentId, operation: "refund", amount: "1", reason: "because" } })).rejects.toThrow(/Choose a reason/);
    // The merchant API's refunds carry no reason.
    const { paymentId: viaApi } = await createTestPayment({ merchantId: owner.merchantId, status: "CAPTURED", captures: [10_000n] });
    const { requestFollowUp } = await import("@/lib/payments/request-follow-up");
    await requestFollowUp({ type: "refund", merchantId: owner.merchantId, mode: "test" as const, paymentRef: viaApi, responseId: `r${viaApi}`.slice(0, 32), input: { amount: 100n } });
    expect((await db().operation.findFirstOrThrow({ where: { paymentId: viaApi, type: "refund" } })).reason).toBeNull();
  });
});
