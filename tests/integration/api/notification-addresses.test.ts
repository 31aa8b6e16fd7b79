// Where notifications go (request, hosted integration, merchant; purpose-specific before default),
// and the Idempotency-Key answer while a first request is still running.
import { describe, expect, it } from "vitest";
import { claimIdempotencyKey, requestFingerprint } from "@/lib/api/idempotency";
import { db } from "@/lib/db";
import { resolveNotificationUrl } from "@/lib/notifications/resolve-notification-url";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();

describe("notification address", () => {
  it("prefers the request's address, then the hosted integration's, then the merchant's; the purpose's before the default", async () => {
    const merchant = await createTestMerchant({
      defaultNotificationUrl: "https://m.example/default",
      completionNotificationUrl: "https://m.example/completion",
      lifecycleNotificationUrl: null,
    });
    const hosted = await db().hostedIntegration.create({
      data: {
        id: "h-addr",
        merchantId: merchant.merchantId,
        hostedId: "shop-b",
        name: "B",
        // Test mode's addresses (the factory's key is a test key); its live ones are elsewhere.
        testDefaultNotificationUrl: null,
        testLifecycleNotificationUrl: "https://h.example/lifecycle",
        lifecycleNotificationUrl: "https://h.example/live-lifecycle",
      },
    });
    const resolve = (
      purpose: "completion" | "lifecycle" | "default",
      options: { requestedUrl?: string; hostedIntegrationId?: string } = {},
    ) => resolveNotificationUrl({ merchantId: merchant.merchantId, mode: "test" as const, purpose, ...options });

    expect(await resolve("default", { requestedUrl: "https://r.example/x", hostedIntegrationId: hosted.id })).toBe("https://r.example/x");
    expect(await resolve("lifecycle", { hostedIntegrationId: hosted.id })).toBe("https://h.example/lifecycle");
    // The hosted integration has no completion or default address: the merchant's are used.
    expect(await resolve("completion", { hostedIntegrationId: hosted.id })).toBe("https://m.example/completion");
    expect(await resolve("default", { hostedIntegrationId: hosted.id })).toBe("https://m.example/default");
    expect(await resolve("lifecycle")).toBe("https://m.example/default");
    // Live mode takes the integration's live addresses, never test mode's.
    expect(await resolveNotificationUrl({ merchantId: merchant.merchantId, mode: "live", purpose: "lifecycle", hostedIntegrationId: hosted.id })).toBe(
      "https://h.example/live-lifecycle",
    );
    // Another merchant's hosted integration is never used.
    const other = await createTestMerchant({ defaultNotificationUrl: "https://o.example/default" });
    expect(await resolveNotificationUrl({ merchantId: other.merchantId, mode: "test" as const, purpose: "lifecycle", hostedIntegrationId: hosted.id })).toBe(
      "https://o.example/default",
    );
  });

  it("sends an operation's notification to the hosted integration of the payment's session", async () => {
    const merchant = await createTestMerchant({ defaultNotificationUrl: "https://m.example/default" });
    const hosted = await db().hostedIntegration.create({
      data: {
        id: "h-op",
        merchantId: merchant.merchantId,
        hostedId: "shop-c",
        name: "C",
        testDefaultNotificationUrl: "https://h.example/default",
      },
    });
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId });
    await db().paymentSession.create({
      data: {
        id: "sessaddr1",
        merchantId: merchant.merchantId, mode: "test" as const,
        hostedIntegrationId: hosted.id,
        amount: 1n,
        currency: "DKK",
        expiresAt: new Date(),
        paymentId,
        status: "COMPLETED",
      },
    });
    const response = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 1 } });
    expect(response.status).toBe(200);
    // Resolved once, when the request is accepted, and stored on the operation (events carry ids only).
    const operation = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    expect(operation.notificationUrl).toBe("https://h.example/default");
  });
});

describe("Idempotency-Key in progress", () => {
  it("a repeat waits for the first request and answers 409 IDEMPOTENCY_IN_PROGRESS while the first holds its lease", async () => {
    const merchant = await createTestMerchant({ defaultNotificationUrl: "https://m.example/default" });
    // A live payment and key: live keys are stored as sent (test mode's have a namespace of their own).
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, mode: "live" });
    const body = { amount: 5 };
    // A first request that claimed the key and has not answered (still running, or its process died).
    const claimed = await claimIdempotencyKey({
      merchantId: merchant.merchantId,
      key: "slow-1",
      responseId: "first-request",
      fingerprint: requestFingerprint("POST", `/api/${paymentId}/capture`, body),
    });
    expect(claimed).toBeUndefined();
    const started = Date.now();
    const response = await api.call("POST", `/api/${paymentId}/capture`, {
      apiKey: merchant.liveApiKey,
      body,
      headers: { "Idempotency-Key": "slow-1" },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      error: "IDEMPOTENCY_IN_PROGRESS",
      errordescription:
        "Idempotency-Key: the first request with this key is still being processed and may already have acted; send the same request again later to get its answer",
    });
    expect(await db().operation.count({ where: { paymentId, type: "capture" } })).toBe(0);
  }, 30_000);
});
