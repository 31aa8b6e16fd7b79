// Request rate limits: a burst beyond the per-key limit of the merchant API, and beyond the
// per-session limit of the hosted fields, is answered 429 with the spec's error body and
// Retry-After; other keys and sessions are not affected; the limit counts again after the window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { startHostedFieldsServer, type HostedFieldsServer } from "../../helpers/hosted-fields-server";
import { quietFor } from "@/tests/helpers/eventually";

useTestDatabase();

const API_LIMIT = 5;
const SESSION_LIMIT = 4;

let api: MerchantApiHarness;
let hosted: HostedFieldsServer;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  process.env.RATE_LIMIT_API_PER_SECOND = String(API_LIMIT);
  process.env.RATE_LIMIT_SESSION_PER_MINUTE = String(SESSION_LIMIT);
  resetConfig();
  api = await startMerchantApi();
  hosted = await startHostedFieldsServer();
  merchant = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
  other = await createTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/notify" });
});
afterAll(async () => {
  await hosted?.close();
  await api?.close();
  delete process.env.RATE_LIMIT_API_PER_SECOND;
  delete process.env.RATE_LIMIT_SESSION_PER_MINUTE;
  resetConfig();
});

function details(key: string, paymentId = "nosuchpayment") {
  return api.call("GET", `/api/${paymentId}/payment`, { apiKey: key });
}

describe("merchant API, per API key", () => {
  it("answers a burst beyond the limit with 429, the spec's error body and Retry-After; another key is unaffected", async () => {
    const burst = await Promise.all(Array.from({ length: API_LIMIT * 3 }, () => details(merchant.apiKey)));
    const limited = burst.filter((response) => response.status === 429);
    const served = burst.filter((response) => response.status !== 429);
    // Within one second at most API_LIMIT pass (a burst crossing a window boundary may pass twice that).
    expect(served.length).toBeLessThanOrEqual(API_LIMIT * 2);
    expect(limited.length).toBeGreaterThanOrEqual(API_LIMIT);
    for (const response of limited) {
      expect(response.body).toEqual({ error: "RATE_LIMITED", errordescription: expect.stringMatching(/^too many requests/) });
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("x-request-id")).toBeTruthy();
    }
    // Refused only for the key that made the burst.
    expect((await details(other.apiKey)).status).not.toBe(429);
  });

  it("accepts the key again once the window has passed", async () => {
    await quietFor(1_100, "the rate limit's window passes");
    expect((await details(merchant.apiKey)).status).not.toBe(429);
  });

  it("does not count refused keys against anyone (no key, no limit to exhaust)", async () => {
    const burst = await Promise.all(Array.from({ length: API_LIMIT * 2 }, () => details("not-a-key")));
    expect(burst.every((response) => response.status === 400 && response.body.error === "INVALID_API_KEY")).toBe(true);
  });
});

async function openSessionOf(owner: TestMerchant): Promise<string> {
  const opened = await api.call("POST", "/api/initdynamic", {
    apiKey: owner.apiKey,
    body: { merchantid: owner.merchantId, amount: 1000, currency: "DKK" },
  });
  expect(opened.status).toBe(200);
  return String(opened.body.sessionid);
}

async function startPaymentIn(sessionId: string) {
  const response = await fetch(`${hosted.origin}/dynamic/${sessionId}/payments`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: hosted.origin },
    body: "{}",
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> };
}

describe("hosted fields, per session", () => {
  const openSession = () => openSessionOf(other);
  const startPayment = startPaymentIn;

  it("answers the requests of one session beyond the limit with 429 and Retry-After; another session is unaffected", async () => {
    const sessionId = await openSession();
    const answers = [];
    for (let index = 0; index < SESSION_LIMIT + 2; index++) answers.push(await startPayment(sessionId));
    expect(answers.slice(0, SESSION_LIMIT).every((answer) => answer.status !== 429)).toBe(true);
    for (const answer of answers.slice(SESSION_LIMIT)) {
      expect(answer.status).toBe(429);
      expect(answer.body).toEqual({ error: "RATE_LIMITED", errordescription: expect.stringMatching(/^too many requests/) });
      expect(Number(answer.retryAfter)).toBeGreaterThan(1);
    }
    expect((await startPayment(await openSession())).status).not.toBe(429);
  });
});

describe("RATE_LIMIT_STORE=postgres", () => {
  it("keeps one count in the database that every process shares", async () => {
    process.env.RATE_LIMIT_STORE = "postgres";
    resetConfig();
    const state = globalThis as unknown as { __cpsRateLimiters?: Map<string, unknown> };
    try {
      const sessionId = await openSessionOf(other);
      // Half the session's limit in "one process"; then a second process (no limiter in its memory)
      // gets only the rest: counted alone it would accept SESSION_LIMIT more.
      for (let index = 0; index < SESSION_LIMIT / 2; index++) expect((await startPaymentIn(sessionId)).status).not.toBe(429);
      state.__cpsRateLimiters?.clear();
      const statuses: number[] = [];
      for (let index = 0; index < SESSION_LIMIT / 2 + 1; index++) statuses.push((await startPaymentIn(sessionId)).status);
      expect(statuses.slice(0, SESSION_LIMIT / 2).every((status) => status !== 429)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const [row] = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM cps_rate_limits WHERE key LIKE ${`%${sessionId}`}`;
      expect(row?.n).toBe(1);
    } finally {
      delete process.env.RATE_LIMIT_STORE;
      resetConfig();
    }
  });
});
