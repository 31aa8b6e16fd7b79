// Security review 3, M3: any developer session read the notification signing secret without a
// password, nobody could ever replace it, it was stored in the clear, and notification addresses and
// checkout origins changed without step-up. Against a real database through the use cases the back
// office calls, and notifications delivered over HTTP to a receiver on loopback: revealing needs the
// owner role and step-up; rolling makes a new secret that signs at once while the old one signs too
// for the chosen overlap (at most 24 h; Standard Webhooks carries both signatures in one header);
// both are audited; the stored secret is encrypted; addresses and origins need step-up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, type Actor } from "@/lib/auth/actor";
import { IdentityNotConfirmedError } from "@/lib/auth/confirm-identity";
import { revealSigningSecret } from "@/lib/backoffice/actions/reveal-signing-secret";
import { rollSigningSecret } from "@/lib/backoffice/actions/roll-signing-secret";
import { updateCheckoutOrigins } from "@/lib/backoffice/actions/update-checkout-origins";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { db } from "@/lib/db";
import type { UserRole } from "@/lib/generated/prisma/enums";
import { deliverNotificationAttempt } from "@/lib/notifications/deliver-notification-attempt";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { verifyNotificationSignature } from "@/lib/notifications/sign-notification";
import { createUser } from "@/lib/users/create-user";
import { createTestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PASSWORD = "a long enough password";
const STEP_UP = { currentPassword: PASSWORD };
let receiver: NotificationReceiver;

beforeAll(async () => {
  receiver = await startNotificationReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function member(merchantId: string, role: UserRole): Promise<Actor> {
  const user = await createUser({
    merchantId,
    email: `${role.toLowerCase()}-${merchantId}@example.com`,
    name: role,
    password: PASSWORD,
    role,
  });
  return { userId: user.id, merchantId, mode: "test" as const, role };
}

/** Delivers one notification of `merchantId` to the receiver; returns what the receiver got. */
async function deliverOne(merchantId: string) {
  const before = receiver.received.length;
  const id = await enqueueNotification({
    merchantId, mode: "test" as const,
    kind: "lifecycle",
    url: receiver.url,
    body: { paymentid: "p", merchantpaymentid: "m", change: "expiry" },
  });
  await deliverNotificationAttempt({ notificationId: id, attemptNumber: 1 });
  const [request] = (await receiver.waitFor(before + 1)).slice(before);
  const headers = {
    id: String(request!.headers["webhook-id"]),
    timestamp: String(request!.headers["webhook-timestamp"]),
    signature: String(request!.headers["webhook-signature"]),
  };
  return {
    headers,
    body: request!.rawBody,
    verifiesWith: (secret: string) => verifyNotificationSignature({ secret, headers, body: request!.rawBody }),
  };
}

describe("M3: revealing the signing secret", () => {
  it("M3: a developer may not reveal it, even with their password", async () => {
    const { merchantId } = await createTestMerchant();
    const developer = await member(merchantId, "DEVELOPER");
    await expect(revealSigningSecret({ actor: developer, input: STEP_UP })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("M3: an owner must confirm their password; the reveal is audited", async () => {
    const { merchantId, notificationSecret } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    await expect(revealSigningSecret({ actor: owner, input: {} })).rejects.toThrow();
    await expect(revealSigningSecret({ actor: owner, input: { currentPassword: "not my password" } })).rejects.toBeInstanceOf(
      IdentityNotConfirmedError,
    );
    const revealed = await revealSigningSecret({ actor: owner, input: STEP_UP, ipAddress: "192.0.2.1" });
    expect(revealed.secret).toBe(notificationSecret);
    expect(await db().auditEntry.count({ where: { merchantId, action: "secret.revealed", userId: owner.userId } })).toBe(1);
  });

  it("M3: the secret is stored encrypted, nowhere in the clear", async () => {
    const { merchantId, notificationSecret, liveNotificationSecret } = await createTestMerchant();
    const dump = await db().$queryRawUnsafe<{ row: string }[]>(
      `SELECT row_to_json(s)::text AS row FROM "SigningSecret" s WHERE s."merchantId" = $1 UNION ALL SELECT row_to_json(m)::text FROM "Merchant" m WHERE m."id" = $1`,
      merchantId,
    );
    // A secret per mode (review 4, M1) and the merchant's row.
    expect(dump.length).toBe(3);
    for (const secret of [notificationSecret, liveNotificationSecret]) for (const { row } of dump) expect(row).not.toContain(secret.replace(/^whsec_/, ""));
  });
});

describe("M3: rolling the signing secret", () => {
  it("M3: the new secret signs at once and the old one too during the overlap; both verify one delivery", async () => {
    const { merchantId, notificationSecret: old } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    const rolled = await rollSigningSecret({ actor: owner, input: { overlapSeconds: "3600", ...STEP_UP } });
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(old);
    expect(rolled.previousValidUntil.getTime() - Date.now()).toBeGreaterThan(3_500_000);
    const delivered = await deliverOne(merchantId);
    expect(delivered.headers.signature.split(" ")).toHaveLength(2);
    expect(delivered.verifiesWith(rolled.secret)).toBe(true);
    expect(delivered.verifiesWith(old)).toBe(true);
    // The reveal shows the new one.
    expect((await revealSigningSecret({ actor: owner, input: STEP_UP })).secret).toBe(rolled.secret);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "secret.rolled" } });
    expect(audit).toMatchObject({ userId: owner.userId, details: expect.objectContaining({ overlapSeconds: 3600 }) });
  });

  it("M3: with no overlap the old secret stops signing at once", async () => {
    const { merchantId, notificationSecret: old } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    const rolled = await rollSigningSecret({ actor: owner, input: { overlapSeconds: "0", ...STEP_UP } });
    const delivered = await deliverOne(merchantId);
    expect(delivered.headers.signature.split(" ")).toHaveLength(1);
    expect(delivered.verifiesWith(rolled.secret)).toBe(true);
    expect(delivered.verifiesWith(old)).toBe(false);
  });

  it("M3: an overlap over 24 h, a developer, or no password is refused and changes nothing", async () => {
    const { merchantId, notificationSecret: old } = await createTestMerchant();
    const owner = await member(merchantId, "OWNER");
    const developer = await member(merchantId, "DEVELOPER");
    await expect(rollSigningSecret({ actor: owner, input: { overlapSeconds: String(25 * 3600), ...STEP_UP } })).rejects.toThrow();
    await expect(rollSigningSecret({ actor: developer, input: { overlapSeconds: "0", ...STEP_UP } })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(rollSigningSecret({ actor: owner, input: { overlapSeconds: "0" } })).rejects.toThrow();
    const delivered = await deliverOne(merchantId);
    expect(delivered.verifiesWith(old)).toBe(true);
    expect(delivered.headers.signature.split(" ")).toHaveLength(1);
  });
});

describe("M3: notification addresses and checkout origins need step-up", () => {
  it("M3: changing the notification addresses without the password is refused and changes nothing", async () => {
    const { merchantId } = await createTestMerchant();
    const developer = await member(merchantId, "DEVELOPER");
    const input = {
      defaultNotificationUrl: "https://attacker.example/notify",
      completionNotificationUrl: "",
      lifecycleNotificationUrl: "",
    };
    // The developer acts in test mode: test mode's addresses (issue 27).
    await expect(updateNotificationUrls({ actor: developer, input })).rejects.toThrow();
    expect((await db().merchant.findUniqueOrThrow({ where: { id: merchantId } })).testDefaultNotificationUrl).toBeNull();
    await updateNotificationUrls({ actor: developer, input: { ...input, ...STEP_UP } });
    expect((await db().merchant.findUniqueOrThrow({ where: { id: merchantId } })).testDefaultNotificationUrl).toBe(
      "https://attacker.example/notify",
    );
  });

  it("M3: changing the checkout origins without the password is refused and changes nothing", async () => {
    const { merchantId } = await createTestMerchant();
    const developer = await member(merchantId, "DEVELOPER");
    await expect(updateCheckoutOrigins({ actor: developer, input: { allowedCheckoutOrigins: "https://shop.example" } })).rejects.toThrow();
    expect((await db().merchant.findUniqueOrThrow({ where: { id: merchantId } })).allowedCheckoutOrigins).toEqual([]);
    await updateCheckoutOrigins({ actor: developer, input: { allowedCheckoutOrigins: "https://shop.example", ...STEP_UP } });
    expect((await db().merchant.findUniqueOrThrow({ where: { id: merchantId } })).allowedCheckoutOrigins).toEqual(["https://shop.example"]);
  });
});
