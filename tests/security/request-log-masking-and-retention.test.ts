// Security review 3, L2 and L4, through the merchant API's route handlers over HTTP and a real
// database. L2: every request with a wrong or missing key wrote an ApiRequest row (merchant null,
// shown to no one) with no limit, and no job ever deleted request-log rows or sign-in attempts, so
// anyone could fill the disk; such requests are now only counted (metrics), and a retention job
// deletes request-log rows after 90 days and sign-in attempts after a day. L4: a TraceApi header or
// a path id holding a card number was stored and shown as sent; both are masked before they are
// stored, and a notificationurl with a user name or password is refused as the back office refuses it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushApiRequestLog } from "@/lib/api/api-request-log";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { pruneRequestRecords } from "@/lib/retention/prune-request-records";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PAN = "4111111111111111";
let api: MerchantApiHarness;
let merchant: TestMerchant;

beforeAll(async () => {
  api = await startMerchantApi();
  merchant = await createTestMerchant();
});
afterAll(async () => {
  await api?.close();
});

describe("L2: anonymous requests leave no rows; old rows go", () => {
  it("L2: requests with a wrong or missing key write no request-log row", async () => {
    const before = await db().apiRequest.count();
    for (let index = 0; index < 20; index++) {
      expect((await api.call("POST", "/api/initdynamic", { apiKey: `cps_wrong${index}`, body: { amount: 1 } })).status).toBe(400);
      expect((await api.call("POST", "/api/initdynamic", { apiKey: null, body: { amount: 1 } })).status).toBe(400);
    }
    await flushApiRequestLog();
    expect(await db().apiRequest.count()).toBe(before);
    // An identified merchant's request is still logged (the Developers area shows it).
    await api.call("POST", "/api/initdynamic", { apiKey: merchant.apiKey, body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK" } });
    await flushApiRequestLog();
    expect(await db().apiRequest.count({ where: { merchantId: merchant.merchantId } })).toBeGreaterThan(0);
  });

  it("L2: the retention job deletes request-log rows after 90 days and sign-in attempts after a day, and keeps newer ones", async () => {
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const row = (createdAt: Date) => ({ id: newId(), merchantId: merchant.merchantId, mode: "test" as const, method: "POST", path: "/api/initdynamic", statusCode: 200, durationMs: 1, createdAt });
    await db().apiRequest.createMany({ data: [row(daysAgo(91)), row(daysAgo(89))] });
    await db().signInAttempt.createMany({
      data: [
        { id: newId(), email: "old@example.com", succeeded: false, createdAt: daysAgo(2) },
        { id: newId(), email: "new@example.com", succeeded: false, createdAt: new Date(now.getTime() - 60_000) },
      ],
    });
    const pruned = await pruneRequestRecords({ now });
    expect(pruned).toMatchObject({ apiRequests: 1, signInAttempts: 1 });
    expect(await db().apiRequest.count({ where: { createdAt: { lt: daysAgo(90) } } })).toBe(0);
    expect(await db().apiRequest.count({ where: { createdAt: daysAgo(89) } })).toBe(1);
    expect(await db().signInAttempt.count({ where: { email: "old@example.com" } })).toBe(0);
    expect(await db().signInAttempt.count({ where: { email: "new@example.com" } })).toBe(1);
  });
});

describe("L4: card numbers never stored from TraceApi or the path", () => {
  it("L4: a PAN sent as TraceApi and as a path id is stored masked", async () => {
    await api.call("POST", `/api/${PAN}/capture`, { apiKey: merchant.apiKey, headers: { TraceApi: PAN }, body: { amount: 100 } });
    await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      headers: { TraceApi: `order-${PAN}` },
      body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK" },
    });
    await flushApiRequestLog();
    const rows = await db().apiRequest.findMany({ where: { merchantId: merchant.merchantId } });
    expect(rows.length).toBeGreaterThan(1);
    expect(JSON.stringify(rows)).not.toContain("111111111111");
  });

  it("L4: a notificationurl with a user name or password is refused", async () => {
    const answer = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK", notificationurl: "https://user:secret@shop.example/notify" },
    });
    expect(answer.body).toMatchObject({ error: "INVALID_PARAMETER", errordescription: expect.stringMatching(/^notificationurl: /) });
  });
});
