// Every model of the data model can be created, read and updated through Prisma, on the embedded
// database and (when TEST_DATABASE_URL is set) on a PostgreSQL server, with one migration history.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db";
import { encryptPan, decryptPan, panFingerprint } from "@/lib/cards/card-encryption";
import { newId } from "@/lib/ids";
import { availableEngines, createTestDatabase, type TestDatabase } from "../helpers/test-database";

describe.each(availableEngines())("data model on %s", (engine) => {
  let database: TestDatabase;
  let prisma: Db;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    prisma = createPrismaClient(database.url, 5);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await database?.drop();
  });

  const merchantId = `1${Math.random().toString().slice(2, 13).padEnd(11, "0")}`;
  const paymentId = newId();
  const cardId = newId();

  it("merchants, users, API keys, hosted integrations, routing and audit entries", async () => {
    await prisma.merchant.create({
      data: {
        id: merchantId,
        name: "Shop",
        routing: { create: [{ rule: 1, processors: ["finaro", "clearhaus"] }, { rule: 2, processors: ["bambora"] }] },
      },
    });
    await prisma.merchant.update({ where: { id: merchantId }, data: { defaultNotificationUrl: "https://shop.example/notify" } });
    const user = await prisma.user.create({
      data: { id: newId(), merchantId, email: `${merchantId}@example.com`, name: "Owner", passwordHash: "$argon2id$x", role: "DEVELOPER" },
    });
    await prisma.user.update({ where: { id: user.id }, data: { role: "VIEWER", lastSignInAt: new Date() } });
    await prisma.signInAttempt.create({ data: { id: newId(), email: user.email, userId: user.id, succeeded: false, ipAddress: "127.0.0.1" } });
    const key = await prisma.apiKey.create({ data: { id: newId(), merchantId, mode: "test" as const, name: "k", prefix: "cps_abcdefgh", hash: newId() + newId() } });
    await prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(), revokedAt: new Date() } });
    const hosted = await prisma.hostedIntegration.create({
      data: { id: newId(), merchantId, hostedId: "shop-eu", name: "EU shop", styling: { color: "#111" } },
    });
    await prisma.hostedIntegration.update({ where: { id: hosted.id }, data: { completionNotificationUrl: "https://shop.example/done" } });
    await prisma.processorRouting.update({ where: { merchantId_rule: { merchantId, rule: 2 } }, data: { processors: ["bambora", "finaro"] } });
    await prisma.auditEntry.create({ data: { id: newId(), merchantId, userId: user.id, action: "api_key.revoked", target: key.id } });

    const merchant = await prisma.merchant.findUniqueOrThrow({
      where: { id: merchantId },
      include: { users: true, apiKeys: true, hostedIntegrations: true, routing: { orderBy: { rule: "asc" } }, auditEntries: true },
    });
    expect(merchant.defaultNotificationUrl).toBe("https://shop.example/notify");
    expect(merchant.users[0]!.role).toBe("VIEWER");
    expect(merchant.apiKeys[0]!.revokedAt).toBeInstanceOf(Date);
    expect(merchant.hostedIntegrations[0]).toMatchObject({ hostedId: "shop-eu", styling: { color: "#111" }, completionNotificationUrl: "https://shop.example/done" });
    expect(merchant.routing.map((r) => r.processors)).toEqual([["finaro", "clearhaus"], ["bambora", "finaro"]]);
    expect(merchant.auditEntries).toHaveLength(1);
    await expect(
      prisma.hostedIntegration.create({ data: { id: newId(), merchantId, hostedId: "shop-eu", name: "again" } }),
    ).rejects.toThrow(/Unique constraint/);
  });

  it("stored cards keep the PAN only encrypted", async () => {
    const pan = "4111111111111111";
    await prisma.storedCard.create({
      data: {
        id: cardId,
        merchantId, mode: "test" as const,
        ...encryptPan(pan),
        panFingerprint: panFingerprint(pan),
        bin: "411111",
        last4: "1111",
        expMonth: 12,
        expYear: 2030,
        scheme: "visa",
        funding: "credit",
        segment: "consumer",
        issuer: "Sandbox Bank",
        par: "V0010013020001234567890123456",
      },
    });
    await prisma.storedCard.update({ where: { id: cardId }, data: { expYear: 2031 } });
    // Read every column of the row as text, the way someone with database access would.
    const rows = await prisma.$queryRawUnsafe<Array<{ row: string }>>(`SELECT row_to_json(c)::text AS row FROM "StoredCard" c WHERE id = $1`, cardId);
    expect(rows[0]!.row).not.toContain(pan);
    expect(rows[0]!.row).not.toContain("411111111111");
    const card = await prisma.storedCard.findUniqueOrThrow({ where: { id: cardId } });
    expect(card.expYear).toBe(2031);
    expect(decryptPan(card)).toBe(pan);
  });

  it("sessions, payments, operations and 3-D Secure authentications", async () => {
    const sessionId = newId();
    await prisma.payment.create({
      data: {
        id: paymentId,
        merchantId, mode: "test" as const,
        merchantPaymentId: "order-1",
        amount: 250n,
        currency: "DKK",
        reference: "ref 1",
        storedCardId: cardId,
        customerSurname: "Jensen",
      },
    });
    await prisma.paymentSession.create({
      data: {
        id: sessionId,
        merchantId, mode: "test" as const,
        amount: 250n,
        currency: "DKK",
        expiresAt: new Date(Date.now() + 900_000),
        processors: ["clearhaus", "bambora"],
        set3ds: "FALLBACK_3DS",
        paymentId,
      },
    });
    await prisma.paymentSession.update({ where: { id: sessionId }, data: { status: "COMPLETED", completedAt: new Date() } });
    await prisma.operation.create({
      data: { id: newId(), paymentId, type: "authorize", paymentType: "cit", amount: 250n, currency: "DKK", processor: "finaro", status: "declined", responseCode: "05" },
    });
    const approved = await prisma.operation.create({
      data: { id: newId(), paymentId, type: "authorize", amount: 250n, currency: "DKK", processor: "clearhaus", routingAttempt: 2 },
    });
    await prisma.operation.update({ where: { id: approved.id }, data: { status: "approved", responseCode: "00", authorizationCode: "123456" } });
    await prisma.payment.update({
      where: { id: paymentId },
      data: { status: "AUTHORIZED", processor: "clearhaus", authorizedAmount: 250n },
    });
    await prisma.threeDsAuthentication.create({
      data: { id: newId(), paymentId, threeDsServerTransId: newId(), transStatus: "Y", eci: "05", state: "completed" },
    });
    const child = await prisma.payment.create({
      data: { id: newId(), merchantId, mode: "test" as const, parentPaymentId: paymentId, amount: 999_999_999_999n, currency: "EUR", paymentType: "unscheduled" },
    });

    const payment = await prisma.payment.findUniqueOrThrow({
      where: { id: paymentId },
      include: { operations: { orderBy: { routingAttempt: "asc" } }, session: true, children: true, storedCard: true, authentications: true },
    });
    expect(payment.status).toBe("AUTHORIZED");
    expect(payment.session?.status).toBe("COMPLETED");
    expect(payment.operations.map((o) => [o.processor, o.status])).toEqual([["finaro", "declined"], ["clearhaus", "approved"]]);
    expect(payment.children[0]!.amount).toBe(999_999_999_999n);
    expect(child.parentPaymentId).toBe(paymentId);
    expect(payment.storedCard?.last4).toBe("1111");
    expect(payment.authentications[0]!.eci).toBe("05");
    await expect(
      prisma.payment.create({ data: { id: newId(), merchantId, mode: "test" as const, merchantPaymentId: "order-1", amount: 1n, currency: "DKK" } }),
    ).rejects.toThrow(/Unique constraint/);
  });

  it("notifications with their delivery attempts, API requests and idempotency records", async () => {
    const notification = await prisma.notification.create({
      data: { id: newId(), merchantId, mode: "test" as const, paymentId, kind: "operation", url: "https://shop.example/n", body: '{"status":"approved"}' },
    });
    await prisma.notificationAttempt.create({
      data: { id: newId(), notificationId: notification.id, attemptNumber: 1, startedAt: new Date(), durationMs: 5000, error: "timed out after 5 s" },
    });
    await prisma.notificationAttempt.create({
      data: { id: newId(), notificationId: notification.id, attemptNumber: 2, startedAt: new Date(), durationMs: 12, statusCode: 200 },
    });
    await prisma.notification.update({ where: { id: notification.id }, data: { status: "delivered", attemptCount: 2, deliveredAt: new Date() } });
    const requestId = newId();
    await prisma.apiRequest.create({ data: { id: requestId, merchantId, mode: "test" as const, method: "POST", path: "/api/x/capture", traceApi: "5f0c...", statusCode: 200, durationMs: 3 } });
    await prisma.apiRequest.update({ where: { id: requestId }, data: { statusCode: 400, errorCode: "INVALID_PARAMETER" } });
    await prisma.idempotencyRecord.create({ data: { merchantId, key: "k-1", requestHash: "h" } });
    await prisma.idempotencyRecord.update({ where: { merchantId_key: { merchantId, key: "k-1" } }, data: { statusCode: 200, responseBody: "{}" } });

    const stored = await prisma.notification.findUniqueOrThrow({ where: { id: notification.id }, include: { attempts: { orderBy: { attemptNumber: "asc" } } } });
    expect(stored.status).toBe("delivered");
    expect(stored.attempts.map((a) => a.statusCode)).toEqual([null, 200]);
    expect((await prisma.apiRequest.findUniqueOrThrow({ where: { id: requestId } })).errorCode).toBe("INVALID_PARAMETER");
    expect((await prisma.idempotencyRecord.findFirstOrThrow({ where: { merchantId } })).statusCode).toBe(200);
  });
});
