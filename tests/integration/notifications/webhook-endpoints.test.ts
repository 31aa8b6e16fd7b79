// Webhook endpoints (issue 28): several per merchant, each of one mode and subscribed to chosen
// kinds, each signed with its own secret, on top of the spec's configured address. Real receivers
// on 127.0.0.1, the real embedded executor, the operator CLI's commands.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { addWebhookEndpoint } from "@/lib/backoffice/actions/add-webhook-endpoint";
import { disableWebhookEndpoint } from "@/lib/backoffice/actions/disable-webhook-endpoint";
import { rollWebhookEndpointSecret } from "@/lib/backoffice/actions/roll-webhook-endpoint-secret";
import { runCliCommand } from "@/lib/cli/commands";
import { listWebhookEndpoints } from "@/lib/notifications/webhook-endpoints";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import { deliverNotification } from "@/lib/jobs/deliver-notification";
import { deliverNowOrSchedule, dispatchNotification, enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { lifecycleNotificationBody, operationNotificationBody } from "@/lib/notifications/bodies";
import { formatUtcTimestamp } from "@/lib/notifications/format";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver, type ReceivedNotification } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

let merchant: TestMerchant;
let configured: NotificationReceiver;
let captures: NotificationReceiver;
let everything: NotificationReceiver;
let live: NotificationReceiver;
let harness: InngestHarness;

beforeAll(async () => {
  configured = await startNotificationReceiver();
  captures = await startNotificationReceiver();
  everything = await startNotificationReceiver();
  live = await startNotificationReceiver();
  merchant = await createTestMerchant({ defaultNotificationUrl: configured.url });
  harness = await startInngestHarness({ functions: [deliverNotification] });
});
afterAll(async () => {
  await harness?.stop();
  await Promise.all([configured, captures, everything, live].map((receiver) => receiver?.close()));
});

const cli = (words: string, options: Record<string, string>) => runCliCommand(words.split(" "), { merchant: merchant.merchantId, ...options });

let counter = 0;
/** A notification of `kind` as the service stores one (bodies the OpenAPI document's webhooks describe). */
async function notify(kind: "capture" | "refund" | "lifecycle" | "test", mode: "test" | "live" = "test") {
  counter++;
  const body =
    kind === "lifecycle"
      ? lifecycleNotificationBody({ paymentId: `p${counter}`, merchantPaymentId: `m${counter}`, change: "expiry" })
      : kind === "test"
        ? { type: "test", merchantid: merchant.merchantId, message: "Test notification from the back office", created: formatUtcTimestamp(new Date()) }
        : operationNotificationBody({ responseId: `r${counter}`, paymentId: `p${counter}`, merchantPaymentId: `m${counter}`, responseCode: "00", authorizationCode: null, status: "approved" });
  const id = await enqueueNotification({ merchantId: merchant.merchantId, mode, kind, url: configured.url, body });
  await dispatchNotification(id);
  return id;
}

function verifies(request: ReceivedNotification, secret: string) {
  return verifyNotificationSignature({
    secret,
    headers: { id: String(request.headers["webhook-id"]), timestamp: String(request.headers["webhook-timestamp"]), signature: String(request.headers["webhook-signature"]) },
    body: request.rawBody,
  });
}

describe("webhook endpoints", () => {
  let capturesSecret: string;
  let everythingSecret: string;
  let capturesId: string;

  it("are added by the operator with a secret of their own, printed once, and audited", async () => {
    const added = await cli("webhooks add", { mode: "test", url: captures.url, kinds: "capture,refund", description: "ledger" });
    const data = added.data as { id: string; signingsecret: string; kinds: string[] };
    expect(data.kinds).toEqual(["capture", "refund"]);
    expect(data.signingsecret).toMatch(/^whsec_/);
    expect(data.signingsecret).not.toBe(merchant.notificationSecret);
    capturesSecret = data.signingsecret;
    capturesId = data.id;
    everythingSecret = ((await cli("webhooks add", { mode: "test", url: everything.url })).data as { signingsecret: string }).signingsecret;
    await cli("webhooks add", { mode: "live", url: live.url });
    const listed = (await cli("webhooks list", {})).data as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(3);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect(await db().auditEntry.count({ where: { merchantId: merchant.merchantId, action: "webhook_endpoint.created" } })).toBe(3);
  });

  it("refuses a bad address or kind with a clear error, and adds nothing", async () => {
    await expect(cli("webhooks add", { mode: "test", url: "not a url" })).rejects.toThrow(/full address/);
    await expect(cli("webhooks add", { mode: "test", url: "ftp://shop.example/x" })).rejects.toThrow(/http/);
    await expect(cli("webhooks add", { mode: "test", url: captures.url, kinds: "capture,bogus" })).rejects.toThrow(/must be among/);
    await expect(cli("webhooks add", { mode: "sandbox", url: captures.url })).rejects.toThrow(/test or live/);
    expect(await db().webhookEndpoint.count({ where: { merchantId: merchant.merchantId } })).toBe(3);
  });

  it("get a copy of each notification of their kinds and mode, signed with their own secret only; the configured address gets it as before", async () => {
    const capture = await notify("capture");
    await configured.waitFor(1);
    await captures.waitFor(1);
    await everything.waitFor(1);
    const [original] = configured.received;
    expect(verifies(original!, merchant.notificationSecret)).toBe(true);
    const [copy] = captures.received;
    expect(copy!.rawBody).toBe(original!.rawBody);
    expect(copy!.headers["x-cps-notification-kind"]).toBe(original!.headers["x-cps-notification-kind"]);
    expect(copy!.headers["webhook-id"]).not.toBe(capture);
    expect(verifies(copy!, capturesSecret)).toBe(true);
    expect(verifies(copy!, merchant.notificationSecret)).toBe(false);
    expect(verifies(copy!, everythingSecret)).toBe(false);
    expect(verifies(everything.received[0]!, everythingSecret)).toBe(true);

    // A life-cycle notification: not the capture endpoint's kind.
    await notify("lifecycle");
    await configured.waitFor(2);
    await everything.waitFor(2);
    await harness.waitUntilIdle();
    expect(captures.received).toHaveLength(1);
    // A test notification goes to the configured address only; live endpoints get no test-mode notification.
    await notify("test");
    await configured.waitFor(3);
    await harness.waitUntilIdle();
    expect(everything.received).toHaveLength(2);
    expect(live.received).toHaveLength(0);
    const configuredBefore = configured.received.length;
    await notify("capture", "live");
    await live.waitFor(1);
    // The configured address gets the live notification too: waited for, so the next case counts from here.
    await configured.waitFor(configuredBefore + 1);
  });

  it("a notification a background function delivers at once (a capture's result) starts its copies once, from the attempt's own read", async () => {
    const before = { configured: configured.received.length, captures: captures.received.length, everything: everything.received.length };
    counter++;
    const body = operationNotificationBody({ responseId: `r${counter}`, paymentId: `p${counter}`, merchantPaymentId: `m${counter}`, responseCode: "00", authorizationCode: null, status: "approved" });
    const id = await enqueueNotification({ merchantId: merchant.merchantId, mode: "test", kind: "capture", url: configured.url, body });
    // The immediate attempt of lib/jobs/run-follow-up-operation.ts: acknowledged by the configured address.
    expect(await deliverNowOrSchedule(id)).toBe(true);
    expect(configured.received).toHaveLength(before.configured + 1);
    await captures.waitFor(before.captures + 1);
    await everything.waitFor(before.everything + 1);
    expect(verifies(captures.received.at(-1)!, capturesSecret)).toBe(true);
    await harness.waitUntilIdle();
    expect(captures.received).toHaveLength(before.captures + 1);
    expect(everything.received).toHaveLength(before.everything + 1);
  });

  it("a notification stored again under its id with ifAbsent keeps the first row and its copies, and refuses without it", async () => {
    counter++;
    const id = `msg_operation_ifabsent_${counter}`;
    const first = operationNotificationBody({ responseId: `r${counter}`, paymentId: `p${counter}`, merchantPaymentId: `m${counter}`, responseCode: "00", authorizationCode: null, status: "approved" });
    const second = { ...first, status: "declined", responsecode: "05" };
    const store = (body: object, ifAbsent?: boolean) =>
      enqueueNotification({ id, merchantId: merchant.merchantId, mode: "test", kind: "capture", url: configured.url, body, ifAbsent });
    expect(await store(first, true)).toBe(id);
    const rows = () => db().notification.findMany({ where: { OR: [{ id }, { copyOfId: id }] }, select: { id: true, body: true }, orderBy: { id: "asc" } });
    const stored = await rows();
    // The configured address's row and one copy per subscribed endpoint (captures, everything).
    expect(stored).toHaveLength(3);
    expect(await store(second, true)).toBe(id);
    expect(await rows()).toEqual(stored);
    await expect(store(second)).rejects.toThrow();
    expect(await rows()).toEqual(stored);
    // Never dispatched: removed, so no later case sees them pending.
    await db().notification.deleteMany({ where: { copyOfId: id } });
    await db().notification.delete({ where: { id } });
  });

  it("each copy has its own delivery schedule: a refusing endpoint is retried, the others are not held back", async () => {
    captures.script({ status: 500 });
    const before = { configured: configured.received.length, captures: captures.received.length };
    await notify("refund");
    await configured.waitFor(before.configured + 1);
    await captures.waitFor(before.captures + 1);
    // The second attempt comes 3 s later on the executor's clock (moved on until it has).
    await eventually(() => captures.received.length >= before.captures + 2, {
      timeoutMs: 5_000,
      intervalMs: 100,
      between: () => harness.advance("4s"),
      onTimeout: "return",
    });
    await captures.waitFor(before.captures + 2);
    expect(configured.received).toHaveLength(before.configured + 1);
    await harness.waitUntilIdle();
    await expect
      .poll(() => db().notification.findMany({ where: { endpointId: capturesId, kind: "refund" }, select: { status: true, attemptCount: true } }), {
        timeout: 15_000,
      })
      .toEqual([{ status: "delivered", attemptCount: 2 }]);
  });

  it("roll their secret with an overlap (both sign meanwhile), and once disabled get no more copies", async () => {
    const rolled = (await cli("webhooks roll-secret", { endpoint: capturesId, "overlap-seconds": "600" })).data as { signingsecret: string };
    const count = captures.received.length;
    await notify("capture");
    const [latest] = (await captures.waitFor(count + 1)).slice(-1);
    expect(verifies(latest!, rolled.signingsecret)).toBe(true);
    expect(verifies(latest!, capturesSecret)).toBe(true);
    // The merchant's own secret is untouched by the endpoint's roll.
    const [original] = configured.received.slice(-1);
    expect(verifies(original!, merchant.notificationSecret)).toBe(true);

    await cli("webhooks disable", { endpoint: capturesId });
    const configuredCount = configured.received.length;
    await notify("capture");
    await configured.waitFor(configuredCount + 1);
    await harness.waitUntilIdle();
    expect(captures.received).toHaveLength(count + 1);
    await expect(cli("webhooks disable", { endpoint: "nosuchendpoint" })).rejects.toThrow(/no such endpoint/);
  });
});

describe("webhook endpoints from the back office", () => {
  const password = "long enough password";
  let owner: Actor;
  let developer: Actor;
  let viewer: Actor;

  beforeAll(async () => {
    const make = async (role: "OWNER" | "DEVELOPER" | "VIEWER") => {
      const user = await createUser({ merchantId: merchant.merchantId, email: `${role.toLowerCase()}-wh@example.com`, name: role, password, role });
      return { userId: user.id, merchantId: merchant.merchantId, mode: "test" as const, role };
    };
    owner = await make("OWNER");
    developer = await make("DEVELOPER");
    viewer = await make("VIEWER");
  });

  it("adds an endpoint of the shown mode after the password, audited with the user; a wrong password or a viewer adds nothing", async () => {
    const before = await db().webhookEndpoint.count({ where: { merchantId: merchant.merchantId } });
    const input = { mode: "test", url: everything.url, kinds: ["refund"], description: "from the back office" };
    await expect(addWebhookEndpoint({ actor: developer, input: { ...input, currentPassword: "wrong password!" } })).rejects.toThrow();
    await expect(addWebhookEndpoint({ actor: viewer, input: { ...input, currentPassword: password } })).rejects.toThrow();
    await expect(addWebhookEndpoint({ actor: developer, input: { ...input, url: "http://10.0.0.1/x", currentPassword: password } })).rejects.toThrow();
    expect(await db().webhookEndpoint.count({ where: { merchantId: merchant.merchantId } })).toBe(before);
    const { endpoint, secret } = await addWebhookEndpoint({ actor: developer, input: { ...input, currentPassword: password } });
    expect(endpoint).toMatchObject({ mode: "test", kinds: ["refund"], enabled: true });
    expect(secret).toMatch(/^whsec_/);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { target: endpoint.id, action: "webhook_endpoint.created" } });
    expect(audit.userId).toBe(developer.userId);
  });

  it("rolls a secret for owners only, and never touches another merchant's or mode's endpoint", async () => {
    const [endpoint] = await listWebhookEndpoints({ merchantId: merchant.merchantId, mode: "test" });
    await expect(rollWebhookEndpointSecret({ actor: developer, input: { endpointId: endpoint!.id, overlapSeconds: 0, currentPassword: password } })).rejects.toThrow();
    const rolled = await rollWebhookEndpointSecret({ actor: owner, input: { endpointId: endpoint!.id, overlapSeconds: 0, currentPassword: password } });
    expect(rolled.secret).toMatch(/^whsec_/);
    const stranger = await createTestMerchant();
    const strangerUser = await createUser({ merchantId: stranger.merchantId, email: "stranger-wh@example.com", name: "S", password, role: "OWNER" });
    const strangerActor = { userId: strangerUser.id, merchantId: stranger.merchantId, mode: "test" as const, role: "OWNER" as const };
    await expect(disableWebhookEndpoint({ actor: strangerActor, input: { endpointId: endpoint!.id } })).rejects.toThrow(/No such endpoint/);
    const [liveEndpoint] = await listWebhookEndpoints({ merchantId: merchant.merchantId, mode: "live" });
    await expect(disableWebhookEndpoint({ actor: owner, input: { endpointId: liveEndpoint!.id } })).rejects.toThrow(/No such endpoint/);
    expect((await disableWebhookEndpoint({ actor: developer, input: { endpointId: endpoint!.id } })).enabled).toBe(false);
  });
});
