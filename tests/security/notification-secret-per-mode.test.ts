// Security review 4, M1: one signing secret signed a merchant's test and live notifications alike. A
// test key (in CI, in a developer's hands after live mode was limited to owners) could make a test
// payment named after a live order, paid with a published test card, and its genuinely signed
// "approved" completion verified at the merchant's live receiver with the live secret. Against a real
// database, notifications delivered over HTTP to a receiver on loopback: each mode has its own secret
// and a notification verifies only with its mode's; the back office reveals and rolls the secret of
// the mode it shows; a merchant from before keeps its one secret for live and gets a new one for test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { revealSigningSecret } from "@/lib/backoffice/actions/reveal-signing-secret";
import { rollSigningSecret } from "@/lib/backoffice/actions/roll-signing-secret";
import { db } from "@/lib/db";
import type { Mode } from "@/lib/mode";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { completionNotificationBody } from "@/lib/notifications/bodies";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { activeSigningSecrets, openSigningSecret } from "@/lib/notifications/signing-secrets";
import { createUser } from "@/lib/users/create-user";
import { startNotificationReceiver, type NotificationReceiver, type ReceivedNotification } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PASSWORD = "a long enough password";
let receiver: NotificationReceiver;

beforeAll(async () => {
  receiver = await startNotificationReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** One completion notification of `mode`, as a payment of that mode would write it, delivered to the receiver. */
async function deliverCompletion(merchantId: string, mode: Mode, merchantPaymentId = "LIVEORDER-1"): Promise<ReceivedNotification> {
  const before = receiver.received.length;
  const id = await enqueueNotification({
    merchantId,
    mode,
    kind: "completion",
    url: receiver.url,
    body: completionNotificationBody({
      sessionId: `session${mode}`,
      paymentId: `payment${mode}`,
      merchantPaymentId,
      newMerchantPaymentId: null,
      status: "approved",
      responseCode: "00",
      authorizationCode: "123456",
      processor: "finaro",
      card: { bin: "411111", last4: "1111", par: null },
      eci: null,
      merchantData: null,
    }),
  });
  await deliverNotificationAttempt({ notificationId: id, attemptNumber: 1 });
  const [request] = (await receiver.waitFor(before + 1)).slice(before);
  return request!;
}

function verifies(request: ReceivedNotification, secret: string): boolean {
  const headers = {
    id: request.headers["webhook-id"] as string,
    timestamp: request.headers["webhook-timestamp"] as string,
    signature: request.headers["webhook-signature"] as string,
  };
  return verifyNotificationSignature({ secret, headers, body: request.rawBody });
}

async function secretOf(merchantId: string, mode: Mode): Promise<string> {
  const [current] = await activeSigningSecrets({ merchantId, mode });
  expect(current).toBeDefined();
  return current!.secret;
}

async function owner(merchantId: string, mode: Mode): Promise<Actor> {
  const user = await createUser({ merchantId, email: `owner-${mode}-${merchantId}@example.com`, name: "Owner", password: PASSWORD, role: "OWNER" });
  return { userId: user.id, merchantId, mode, role: "OWNER" };
}

describe("M1: one signing secret per mode", () => {
  it("M1: a test-mode notification does not verify with the live secret, nor a live one with the test secret", async () => {
    const { merchant } = await createMerchant({ name: "Two modes" });
    const live = await secretOf(merchant.id, "live");
    const test = await secretOf(merchant.id, "test");
    expect(test).not.toBe(live);
    // The attack: a test payment named after a live order, "approved".
    const fromTest = await deliverCompletion(merchant.id, "test");
    const fromLive = await deliverCompletion(merchant.id, "live");
    expect({ testWithLive: verifies(fromTest, live), testWithTest: verifies(fromTest, test) }).toEqual({ testWithLive: false, testWithTest: true });
    expect({ liveWithLive: verifies(fromLive, live), liveWithTest: verifies(fromLive, test) }).toEqual({ liveWithLive: true, liveWithTest: false });
    // The mode is in the signed bytes too, for receivers that check it.
    expect(JSON.parse(fromTest.rawBody)).toMatchObject({ mode: "test" });
  });

  it("M1: creating a merchant gives the live secret as before and a test secret beside it", async () => {
    const created = await createMerchant({ name: "Printed secrets" });
    const { merchant } = created as unknown as { merchant: { id: string; notificationSecret: string; testNotificationSecret?: string } };
    expect(merchant.notificationSecret).toBe(await secretOf(merchant.id, "live"));
    expect(merchant.testNotificationSecret).toBe(await secretOf(merchant.id, "test"));
  });

  it("M1: the back office reveals and rolls the secret of the mode it shows, and a roll in test mode leaves the live secret alone", async () => {
    const { merchant } = await createMerchant({ name: "Reveal per mode" });
    const live = await secretOf(merchant.id, "live");
    const test = await secretOf(merchant.id, "test");
    const inTest = await owner(merchant.id, "test");
    const inLive: Actor = { ...inTest, mode: "live" };
    expect((await revealSigningSecret({ actor: inTest, input: { currentPassword: PASSWORD } })).secret).toBe(test);
    expect((await revealSigningSecret({ actor: inLive, input: { currentPassword: PASSWORD } })).secret).toBe(live);
    const rolled = await rollSigningSecret({ actor: inTest, input: { currentPassword: PASSWORD, overlapSeconds: "0" } });
    expect(rolled.secret).not.toBe(test);
    expect(await secretOf(merchant.id, "test")).toBe(rolled.secret);
    expect(await secretOf(merchant.id, "live")).toBe(live);
    const fromLive = await deliverCompletion(merchant.id, "live");
    expect(verifies(fromLive, live)).toBe(true);
    expect(verifies(fromLive, rolled.secret)).toBe(false);
  });

  it("M1: a merchant from before (one secret) keeps it for live notifications and gets a separate test secret", async () => {
    const { merchant } = await createMerchant({ name: "From before" });
    const legacy = merchant.notificationSecret;
    // As a merchant made before secrets had a mode: only the secret it was given then.
    for (const row of await db().signingSecret.findMany({ where: { merchantId: merchant.id, endpointId: null } })) {
      if ((await openSigningSecret(row)) !== legacy) await db().signingSecret.delete({ where: { id: row.id } });
    }
    const fromLive = await deliverCompletion(merchant.id, "live");
    expect(verifies(fromLive, legacy)).toBe(true);
    const fromTest = await deliverCompletion(merchant.id, "test");
    expect(verifies(fromTest, legacy)).toBe(false);
    const test = await secretOf(merchant.id, "test");
    expect(test).not.toBe(legacy);
    expect(verifies(fromTest, test)).toBe(true);
  });
});
