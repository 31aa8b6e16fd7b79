// Developers > API requests and Notifications: the two list queries' filters, keyset pages and the
// merchant scope. The API request rows are written by the real merchant-API wrapper (over HTTP with
// the merchant's key, a TraceApi header and a refused request), and other rows are inserted to hold
// dates, statuses and another merchant's traffic the filters must tell apart.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { flushApiRequestLog } from "@/lib/api/api-request-log";
import { NotFoundError } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { NotificationKind, NotificationStatus } from "@/lib/generated/prisma/enums";
import { API_REQUEST_PAGE_SIZE, listApiRequests, parseApiRequestFilters } from "@/lib/backoffice/queries/list-api-requests";
import { getApiRequestOrThrow } from "@/lib/backoffice/queries/get-api-request";
import { listNotifications, parseNotificationFilters } from "@/lib/backoffice/queries/list-notifications";

useTestDatabase();

const api = useMerchantApi();
const mine = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/unused" });
const theirs = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/unused" });
const TRACE = "trace-dev-log-0001";

async function insertRequest(merchantId: string | null, row: Partial<{ method: string; path: string; statusCode: number; errorCode: string | null; traceApi: string | null; createdAt: Date }>) {
  const id = newId();
  await db().apiRequest.create({
    data: { id, merchantId, mode: "test" as const, method: row.method ?? "POST", path: row.path ?? "/api/initdynamic", statusCode: row.statusCode ?? 200, errorCode: row.errorCode ?? null, traceApi: row.traceApi ?? null, durationMs: 7, createdAt: row.createdAt ?? new Date() },
  });
  return id;
}

describe("listApiRequests", () => {
  it("shows the merchant's own requests as the wrapper recorded them: method, path, status, error code, TraceApi, duration", async () => {
    const ok = await api.call("POST", "/api/initdynamic", {
      apiKey: mine.apiKey,
      headers: { TraceApi: TRACE },
      body: { merchantid: mine.merchantId, amount: 12500, currency: "DKK", reference: "dev log" },
    });
    expect(ok.status).toBe(200);
    const refused = await api.call("POST", "/api/initdynamic", { apiKey: mine.apiKey, headers: { TraceApi: `${TRACE}-bad` }, body: { merchantid: mine.merchantId, amount: -1, currency: "DKK" } });
    expect(refused.status).toBe(400);
    // The other merchant's request, with the same TraceApi, and a request refused before any merchant was known.
    await api.call("POST", "/api/initdynamic", { apiKey: theirs.apiKey, headers: { TraceApi: TRACE }, body: { merchantid: theirs.merchantId, amount: 100, currency: "DKK" } });
    await api.call("POST", "/api/initdynamic", { apiKey: "cps_not_a_key", headers: { TraceApi: TRACE }, body: {} });
    await flushApiRequestLog();

    const { rows } = await listApiRequests({ merchantId: mine.merchantId , mode: "test" as const});
    expect(rows).toHaveLength(2);
    const [newest, oldest] = rows;
    expect(oldest).toMatchObject({ method: "POST", path: "/api/initdynamic", statusCode: 200, errorCode: null, traceApi: TRACE });
    expect(newest).toMatchObject({ statusCode: 400, errorCode: "INVALID_PARAMETER", traceApi: `${TRACE}-bad` });
    expect(newest!.durationMs).toBeGreaterThanOrEqual(0);

    const byTrace = await listApiRequests({ merchantId: mine.merchantId, mode: "test" as const, filters: { traceApi: TRACE } });
    expect(byTrace.rows.map((row) => row.statusCode)).toEqual([200]);
    expect((await listApiRequests({ merchantId: mine.merchantId, mode: "test" as const, filters: { status: "4xx" } })).rows.map((row) => row.errorCode)).toEqual(["INVALID_PARAMETER"]);
    expect((await listApiRequests({ merchantId: mine.merchantId, mode: "test" as const, filters: { errorCode: "INVALID_PARAMETER" } })).rows).toHaveLength(1);
  });

  it("keeps the error description, both bodies with card numbers masked, the key and an idempotent replay (newcomer review F11)", async () => {
    const card = "4111 1111 1111 1111";
    const body = { merchantid: mine.merchantId, amount: 4200, currency: "DKK", reference: card };
    const first = await api.call<Record<string, unknown>>("POST", "/api/initdynamic", { apiKey: mine.apiKey, headers: { TraceApi: "f11-first", "Idempotency-Key": "f11-key" }, body });
    const replay = await api.call<Record<string, unknown>>("POST", "/api/initdynamic", { apiKey: mine.apiKey, headers: { TraceApi: "f11-replay", "Idempotency-Key": "f11-key" }, body });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const refused = await api.call<Record<string, unknown>>("POST", "/api/not-a-payment/void", { apiKey: mine.apiKey, headers: { TraceApi: "f11-refused" }, body: {} });
    expect(refused.status).toBe(400);
    const lookup = await api.call<Record<string, unknown>>("GET", `/api/not-a-payment/payment?notificationurl=${encodeURIComponent("http://127.0.0.1:9/x")}`, { apiKey: mine.apiKey, headers: { TraceApi: "f11-get" } });
    await api.call("POST", "/api/initdynamic", { apiKey: "cps_not_a_key", headers: { TraceApi: "f11-anonymous" }, body: { reference: "kept nowhere" } });
    await flushApiRequestLog();
    const row = (traceApi: string) => db().apiRequest.findFirstOrThrow({ where: { traceApi } });
    const key = await db().apiKey.findFirstOrThrow({ where: { merchantId: mine.merchantId }, select: { id: true } });

    const stored = await row("f11-first");
    expect(stored).toMatchObject({ apiKeyId: key.id, idempotencyKey: "f11-key", idempotentReplay: false, errorDescription: null });
    expect(JSON.parse(stored.requestBody!)).toEqual({ merchantid: mine.merchantId, amount: 4200, currency: "DKK", reference: "[redacted digits]" });
    expect(JSON.parse(stored.responseBody!)).toMatchObject({ sessionid: first.body.sessionid, merchantid: mine.merchantId, reference: "[redacted digits]" });
    for (const text of [stored.requestBody, stored.responseBody]) {
      expect(text).not.toContain(card);
      expect(text).not.toContain(card.replaceAll(" ", ""));
    }
    expect(await row("f11-replay")).toMatchObject({ idempotentReplay: true, idempotencyKey: "f11-key", apiKeyId: key.id });

    const refusedRow = await row("f11-refused");
    expect(refusedRow).toMatchObject({ errorCode: refused.body.error, errorDescription: refused.body.errordescription, requestBody: "{}" });
    expect(JSON.parse(refusedRow.responseBody!)).toEqual(refused.body);
    // The refusal carried no responseid: the page names none; the lookup's answer did.
    expect((await getApiRequestOrThrow({ merchantId: mine.merchantId, mode: "test" as const, requestId: refusedRow.id })).responseId).toBeNull();
    const getRow = await row("f11-get");
    expect(JSON.parse(getRow.requestBody!)).toEqual({ notificationurl: "http://127.0.0.1:9/x" });
    if (lookup.status === 200) expect((await getApiRequestOrThrow({ merchantId: mine.merchantId, mode: "test" as const, requestId: getRow.id })).responseId).toBe(lookup.body.responseid);
    const shown = await getApiRequestOrThrow({ merchantId: mine.merchantId, mode: "test" as const, requestId: stored.id });
    expect(shown.apiKey).toMatchObject({ name: "Test key" });

    // A caller no key identified: nothing of what it sent is kept (its request is not stored at all).
    expect(await db().apiRequest.count({ where: { traceApi: "f11-anonymous" } })).toBe(0);
  });

  it("never shows another merchant's rows, nor rows with no merchant, whatever the filters", async () => {
    const theirRows = await db().apiRequest.findMany({ where: { OR: [{ merchantId: theirs.merchantId }, { merchantId: null }] }, select: { id: true } });
    // (Refused requests that no key identified are not stored at all since review 3, L2.)
    expect(theirRows.length).toBeGreaterThanOrEqual(1);
    for (const filters of [{}, { traceApi: TRACE }, { status: "4xx" as const }, { errorCode: "INVALID_API_KEY" as const }, { path: "/api" }]) {
      const { rows } = await listApiRequests({ merchantId: mine.merchantId, mode: "test" as const, filters });
      for (const row of rows) expect(theirRows.map((their) => their.id)).not.toContain(row.id);
    }
    await expect(getApiRequestOrThrow({ merchantId: mine.merchantId, mode: "test" as const, requestId: theirRows[0]!.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("filters by status class, method, path, error code and UTC days, and pages by keyset without gaps or repeats", async () => {
    const { merchantId } = await createTestMerchant();
    const day = (iso: string) => new Date(`${iso}T12:00:00Z`);
    await insertRequest(merchantId, { statusCode: 200, path: "/api/abc/capture", createdAt: day("2026-03-01") });
    await insertRequest(merchantId, { statusCode: 429, errorCode: "RATE_LIMITED", path: "/api/abc/refund", createdAt: day("2026-03-02") });
    await insertRequest(merchantId, { statusCode: 500, errorCode: "INTERNAL_ERROR", method: "GET", path: "/api/abc/payment", createdAt: day("2026-03-03") });
    const statuses = async (filters: Parameters<typeof listApiRequests>[0]["filters"]) => (await listApiRequests({ merchantId, mode: "test" as const, filters })).rows.map((row) => row.statusCode);
    expect(await statuses({ status: "2xx" })).toEqual([200]);
    expect(await statuses({ status: "4xx" })).toEqual([429]);
    expect(await statuses({ status: "5xx" })).toEqual([500]);
    expect(await statuses({ method: "GET" })).toEqual([500]);
    expect(await statuses({ path: "/refund" })).toEqual([429]);
    expect(await statuses({ errorCode: "RATE_LIMITED" })).toEqual([429]);
    expect(await statuses({ from: "2026-03-02" })).toEqual([500, 429]);
    expect(await statuses({ to: "2026-03-02" })).toEqual([429, 200]);
    expect(await statuses({ from: "2026-03-02", to: "2026-03-02" })).toEqual([429]);

    // Many rows in the same millisecond: the id breaks the tie, so no row is skipped or shown twice.
    const sameInstant = new Date("2026-04-01T00:00:00Z");
    for (let index = 0; index < API_REQUEST_PAGE_SIZE + 7; index += 1) await insertRequest(merchantId, { path: "/api/paged/capture", createdAt: sameInstant });
    const first = await listApiRequests({ merchantId, mode: "test" as const, filters: { path: "/api/paged" } });
    expect(first.rows).toHaveLength(API_REQUEST_PAGE_SIZE);
    expect(first.next).toBeDefined();
    const second = await listApiRequests({ merchantId, mode: "test" as const, filters: { path: "/api/paged" }, after: first.next });
    expect(second.rows).toHaveLength(7);
    expect(second.next).toBeUndefined();
    expect(new Set([...first.rows, ...second.rows].map((row) => row.id)).size).toBe(API_REQUEST_PAGE_SIZE + 7);
  });

  it("parses the query string with zod: a bad field is reported and dropped, the others still apply", () => {
    const { filters, errors } = parseApiRequestFilters({ status: "3xx", traceApi: "abc", from: "2026-02-30", errorCode: "NOPE", path: "" });
    expect(filters).toEqual({ traceApi: "abc" });
    expect(Object.keys(errors).sort()).toEqual(["errorCode", "from", "status"]);
  });
});

describe("listNotifications", () => {
  async function insertNotification(merchantId: string, row: { kind: NotificationKind; status: NotificationStatus; attemptCount?: number; paymentId?: string | null; createdAt?: Date; lastStatusCode?: number | null }) {
    const id = newId();
    await db().notification.create({
      data: {
        id,
        merchantId, mode: "test" as const,
        paymentId: row.paymentId ?? null,
        kind: row.kind,
        url: "http://127.0.0.1:9/receiver",
        body: JSON.stringify({ responseid: id }),
        status: row.status,
        attemptCount: row.attemptCount ?? 0,
        createdAt: row.createdAt ?? new Date(),
      },
    });
    for (let attempt = 1; attempt <= (row.attemptCount ?? 0); attempt += 1) {
      const last = attempt === row.attemptCount;
      await db().notificationAttempt.create({
        data: { id: newId(), notificationId: id, attemptNumber: attempt, startedAt: new Date(), durationMs: 3, statusCode: last ? (row.lastStatusCode ?? null) : 503, error: last && row.lastStatusCode === 200 ? null : "refused" },
      });
    }
    return id;
  }

  it("shows kind, delivery state, attempts and the receiver's last answer; filters by kind, state, payment and day; only the merchant's own", async () => {
    const { merchantId } = await createTestMerchant();
    const other = await createTestMerchant();
    const { paymentId } = await createTestPayment({ merchantId, merchantPaymentId: "order-dev-1" });
    const { paymentId: otherPayment } = await createTestPayment({ merchantId: other.merchantId });
    const delivered = await insertNotification(merchantId, { kind: "capture", status: "delivered", attemptCount: 2, paymentId, lastStatusCode: 200, createdAt: new Date("2026-05-01T10:00:00Z") });
    const retrying = await insertNotification(merchantId, { kind: "refund", status: "pending", attemptCount: 3, paymentId, lastStatusCode: 500, createdAt: new Date("2026-05-02T10:00:00Z") });
    const failed = await insertNotification(merchantId, { kind: "completion", status: "failed", attemptCount: 8, lastStatusCode: null, createdAt: new Date("2026-05-03T10:00:00Z") });
    const queued = await insertNotification(merchantId, { kind: "test", status: "pending", attemptCount: 0, createdAt: new Date("2026-05-04T10:00:00Z") });
    const theirs = await insertNotification(other.merchantId, { kind: "capture", status: "delivered", attemptCount: 1, paymentId: otherPayment, lastStatusCode: 200 });

    const all = await listNotifications({ merchantId, mode: "test" as const });
    expect(all.rows.map((row) => row.id)).toEqual([queued, failed, retrying, delivered]);
    expect(all.rows.map((row) => row.state)).toEqual(["pending", "failed", "retrying", "delivered"]);
    expect(all.rows.find((row) => row.id === delivered)).toMatchObject({ kind: "capture", attemptCount: 2, lastAttempt: { attemptNumber: 2, statusCode: 200 } });
    expect(all.rows.find((row) => row.id === retrying)!.lastAttempt).toMatchObject({ attemptNumber: 3, statusCode: 500 });
    expect(all.rows.find((row) => row.id === failed)!.lastAttempt).toMatchObject({ attemptNumber: 8, statusCode: null });
    expect(all.rows.find((row) => row.id === queued)!.lastAttempt).toBeNull();

    const ids = async (filters: Parameters<typeof listNotifications>[0]["filters"]) => (await listNotifications({ merchantId, mode: "test" as const, filters })).rows.map((row) => row.id);
    expect(await ids({ kind: "refund" })).toEqual([retrying]);
    expect(await ids({ status: "delivered" })).toEqual([delivered]);
    // One word per state (issue 28, F12): "retrying" was refused and will be tried again; "pending" not tried yet.
    expect(await ids({ status: "retrying" })).toEqual([retrying]);
    expect(await ids({ status: "pending" })).toEqual([queued]);
    expect(await ids({ status: "failed" })).toEqual([failed]);
    expect(await ids({ paymentId })).toEqual([retrying, delivered]);
    expect(await ids({ paymentId: "order-dev-1" })).toEqual([retrying, delivered]);
    expect(await ids({ from: "2026-05-02", to: "2026-05-03" })).toEqual([failed, retrying]);

    // Another merchant's notification never shows, not even when asked for by its payment.
    expect(await ids({ paymentId: otherPayment })).toEqual([]);
    expect(await ids({ kind: "capture" })).toEqual([delivered]);
    expect((await listNotifications({ merchantId, mode: "test" as const })).rows.map((row) => row.id)).not.toContain(theirs);
  });

  it("parses the query string with zod: a bad field is reported and dropped", () => {
    const { filters, errors } = parseNotificationFilters({ kind: "nonsense", status: "retrying", paymentId: "has space", to: "2026-05-01" });
    expect(filters).toEqual({ status: "retrying", to: "2026-05-01" });
    expect(Object.keys(errors).sort()).toEqual(["kind", "paymentId"]);
  });

  it("links a request to the notifications that carry its responseid", async () => {
    const { merchantId } = await createTestMerchant();
    const requestId = await insertRequest(merchantId, { path: "/api/x/capture" });
    const notificationId = newId();
    await db().notification.create({ data: { id: notificationId, merchantId, mode: "test" as const, kind: "capture", url: "http://127.0.0.1:9/r", body: JSON.stringify({ responseid: requestId, status: "approved" }) } });
    const { request, notifications } = await getApiRequestOrThrow({ merchantId, mode: "test" as const, requestId });
    expect(request.id).toBe(requestId);
    expect(notifications.map((notification) => notification.id)).toEqual([notificationId]);
  });
});
