// When every pooled database connection is busy (an overloaded service), a merchant request whose
// database work cannot get a connection in time has changed nothing: it must answer 503
// SERVICE_UNAVAILABLE with Retry-After, not 500 INTERNAL_ERROR, and the same request with the same
// Idempotency-Key must then succeed exactly once. Real HTTP, real database; the pool is exhausted
// deterministically by holding its one connection in an open transaction (tests/helpers/exhaust-db-pool.ts).
import { afterEach, describe, expect, it } from "vitest";
import { clearApiKeyCache } from "@/lib/api/authenticate-api-key";
import { db } from "@/lib/db";
import { settingsCacheListening } from "@/lib/db/settings-cache";
import { captureLogs } from "@/lib/observability/logger";
import { holdThePoolsConnection, useExhaustiblePool } from "@/tests/helpers/exhaust-db-pool";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const { usePool } = useExhaustiblePool();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });

async function changesOf(paymentId: string, merchantId: string) {
  const [operations, sessions, events, idempotency] = await Promise.all([
    db().operation.count({ where: { paymentId } }),
    db().paymentSession.count({ where: { merchantId } }),
    db().inngestEvent.findMany({ select: { payload: true } }),
    db().idempotencyRecord.count({ where: { merchantId } }),
  ]);
  return {
    operations,
    sessions,
    followUpEvents: events.filter((event) => JSON.stringify(event.payload).includes(paymentId)).length,
    idempotency,
  };
}

function expectRetryable503(response: { status: number; headers: Headers; body: Record<string, unknown> }) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("2");
  expect(response.body).toEqual({
    error: "SERVICE_UNAVAILABLE",
    errordescription: expect.stringMatching(/temporarily unavailable.*nothing was done.*same Idempotency-Key/i),
  });
}

afterEach(() => clearApiKeyCache());

describe("a merchant request that cannot get a pooled database connection in time", () => {
  it("capture whose statements cannot get a pooled connection within the pool's wait answers 503 SERVICE_UNAVAILABLE with Retry-After, changes nothing, and succeeds when retried", async (context) => {
    // Without an Idempotency-Key a capture runs no transaction (decision 0212: a read, then the
    // guarded reservation, each a statement of its own), so it is the pool's own bounded wait that
    // gives up, whichever of its statements meets the held pool.
    await usePool(1_500);
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const before = await changesOf(paymentId, merchant.merchantId);
    // A refused capture loads the route now and finds the API key; once this process's settings
    // cache listens (lib/db/settings-cache.ts), a second one caches the key, so the capture below
    // reaches its own statements without another query. Where nothing is cached (PGlite passes no
    // notifications between connections) the key's own query would meet the held pool first.
    const refused = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: "x" } });
    expect(refused.body.error).toBe("INVALID_PARAMETER");
    if (!(await settingsCacheListening())) return context.skip();
    expect((await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: "x" } })).body.error).toBe("INVALID_PARAMETER");

    const logs = captureLogs({ level: "info" });
    const release = await holdThePoolsConnection(10_000);
    let response;
    try {
      response = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 4000 } });
    } finally {
      await release();
      logs.stop();
    }
    expectRetryable503(response);
    expect(await changesOf(paymentId, merchant.merchantId)).toEqual(before);
    // Logged as an overload at warn level, once, without a stack; nothing at error level.
    const entries = logs.entries();
    expect(entries.filter((entry) => Number(entry.level) >= 50)).toEqual([]);
    const warnings = entries.filter((entry) => entry.level === 40 && JSON.stringify(entry).includes("SERVICE_UNAVAILABLE"));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(warnings)).not.toMatch(/\n\s+at /);
    // ...and it was the pool's wait for a connection that gave up.
    expect(entries.some((entry) => /timeout exceeded when trying to connect/.test(String(entry.reason)))).toBe(true);

    const retried = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 4000 } });
    expect(retried.status).toBe(200);
    expect(await db().operation.count({ where: { paymentId, type: "capture" } })).toBe(1);
  }, 60_000);

  it("initdynamic and capture with an Idempotency-Key answer 503 when no connection frees up within the pool's wait, change nothing, and the same key then succeeds once", async () => {
    await usePool(1_500);
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const before = await changesOf(paymentId, merchant.merchantId);
    const initBody = { merchantid: merchant.merchantId, amount: 250, currency: "DKK", merchantpaymentid: `order${paymentId.slice(0, 8)}` };
    const initHeaders = { "Idempotency-Key": `init-${paymentId}` };
    const captureHeaders = { "Idempotency-Key": `capture-${paymentId}` };

    // Without a bounded wait for a connection the requests would wait here until the hold ends (10 s).
    const release = await holdThePoolsConnection(10_000);
    let init, capture;
    try {
      [init, capture] = await Promise.all([
        api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, body: initBody, headers: initHeaders }),
        api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 4000 }, headers: captureHeaders }),
      ]);
    } finally {
      await release();
    }
    expectRetryable503(init);
    expectRetryable503(capture);
    expect(await changesOf(paymentId, merchant.merchantId)).toEqual(before);

    // The same requests with the same keys, once connections are free: done once, then replayed.
    const initAgain = await api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, body: initBody, headers: initHeaders });
    const captureAgain = await api.call("POST", `/api/${paymentId}/capture`, {
      apiKey: merchant.apiKey,
      body: { amount: 4000 },
      headers: captureHeaders,
    });
    expect([initAgain.status, captureAgain.status]).toEqual([200, 200]);
    const replay = await api.call("POST", `/api/${paymentId}/capture`, {
      apiKey: merchant.apiKey,
      body: { amount: 4000 },
      headers: captureHeaders,
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(captureAgain.body);
    expect(await db().operation.count({ where: { paymentId, type: "capture" } })).toBe(1);
    expect(
      await db().paymentSession.count({ where: { merchantId: merchant.merchantId, merchantPaymentId: initBody.merchantpaymentid } }),
    ).toBe(1);
  }, 60_000);
});
