// What the web-process CPU cuts of issue 14 (docs/performance.md, "Web-process CPU per request")
// must keep: a capture's event is an outbox row of the capture's own transaction in embedded mode
// (stored exactly once with the operation, even when the Inngest client could not send), and with an
// Inngest server it is still sent after the commit; the access
// line and every other line never carry a card number a merchant put in TraceApi; the batched
// request log still stores every request's row as before.
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushApiRequestLog } from "@/lib/api/api-request-log";
import { config, resetConfig } from "@/lib/env";
import { requestFollowUp } from "@/lib/payments/request-follow-up";
import { db } from "@/lib/db";
import { inngest } from "@/lib/inngest/client";
import { captureLogs } from "@/lib/observability/logger";
import { useMerchantApi } from "@/tests/helpers/merchant-api-harness";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const api = useMerchantApi();
const merchant = useTestMerchant({ defaultNotificationUrl: "http://127.0.0.1:9/default" });

afterEach(() => vi.restoreAllMocks());

const PAN = "4539578763621486";

describe("capture's event, an outbox row of the capture's transaction (embedded mode)", () => {
  it("is stored once with the operation even when the Inngest client cannot send", async () => {
    // Before: the event was sent through the client after the commit; a failed send left a pending
    // operation with no event until the stalled-work job's next minute.
    vi.spyOn(inngest, "send").mockRejectedValue(new Error("event API down"));
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
    const response = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 100 } });
    expect(response.status).toBe(200);
    const operation = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
    const events = await db().inngestEvent.findMany({ where: { idempotencyKey: `follow-up-${operation.id}` } });
    expect(events).toHaveLength(1);
    expect(events[0]!.name).toBe("payment/follow-up.requested");
    expect(events[0]!.payload).toMatchObject({
      id: `follow-up-${operation.id}`,
      name: "payment/follow-up.requested",
      data: { operationId: operation.id },
    });
  });

  it("is not stored when the capture is refused (the transaction rolls back as a whole)", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 1_000n });
    const before = await db().inngestEvent.count();
    const response = await api.call("POST", `/api/${paymentId}/capture`, { apiKey: merchant.apiKey, body: { amount: 5_000 } });
    expect(response.status).toBe(400);
    expect(await db().operation.count({ where: { paymentId, type: "capture" } })).toBe(0);
    expect(await db().inngestEvent.count()).toBe(before);
  });
});

describe("capture's event with an Inngest server", () => {
  it("stores the operation and its event in one transaction, and forwards the event from the table after the commit", async () => {
    const saved = process.env.INNGEST_DEV;
    process.env.INNGEST_DEV = "http://127.0.0.1:9/";
    resetConfig();
    try {
      expect(config().inngestMode).toBe("server");
      const { paymentId } = await createTestPayment({ merchantId: merchant.merchantId, amount: 10_000n });
      const sent: { id?: string; name: string; committed: number }[] = [];
      vi.spyOn(inngest, "send").mockImplementation((async (payload: { id?: string; name: string } | { id?: string; name: string }[]) => {
        // What the server would see at the moment of the send: the operation already committed.
        const committed = await db().operation.count({ where: { paymentId, type: "capture" } });
        for (const event of Array.isArray(payload) ? payload : [payload]) sent.push({ ...event, committed });
        return { ids: ["server-id"] };
      }) as never);
      await requestFollowUp({
        type: "capture",
        merchantId: merchant.merchantId,
        mode: "test" as const,
        paymentRef: paymentId,
        responseId: "r-server-mode",
        input: { amount: 100 } as never,
      });
      const operation = await db().operation.findFirstOrThrow({ where: { paymentId, type: "capture" } });
      // (Rows left unfanned by earlier tests of this file, run without an executor, go along.)
      expect(sent.filter((event) => event.name === "payment/follow-up.requested" && event.id === `follow-up-${operation.id}`)).toEqual([
        expect.objectContaining({ committed: 1 }),
      ]);
      // Forwarded, then deleted: the outbox row does not stay behind in server mode.
      expect(await db().inngestEvent.count({ where: { idempotencyKey: `follow-up-${operation.id}` } })).toBe(0);
      expect(await db().inngestEvent.count({ where: { fannedOutAt: null } })).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.INNGEST_DEV;
      else process.env.INNGEST_DEV = saved;
      resetConfig();
    }
  });
});

describe("card numbers in TraceApi", () => {
  it("never reach the access line, the request's other lines or the stored trace row (security review 3, L4)", async () => {
    const logs = captureLogs({ level: "debug" });
    let response;
    try {
      response = await api.call("POST", "/api/initdynamic", {
        apiKey: merchant.apiKey,
        body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK", reference: "r" },
        headers: { TraceApi: `order-${PAN}` },
      });
    } finally {
      logs.stop();
    }
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const lines = logs.lines();
    const access = logs.entries().find((entry) => entry.event === "http.access");
    expect(access).toMatchObject({ route: "/api/initdynamic", status: 200, merchantId: merchant.merchantId });
    expect(String(access?.traceApi)).toContain("order-");
    expect(lines.join("\n")).not.toContain(PAN.slice(6, 12));
    // Echoed whole (spec: TraceApi), stored masked like the path and the bodies.
    expect(response.headers.get("traceapi")).toBe(`order-${PAN}`);
    await flushApiRequestLog();
    const row = await db().apiRequest.findFirstOrThrow({
      where: { merchantId: merchant.merchantId, traceApi: { startsWith: "order-" } },
      orderBy: { createdAt: "desc" },
    });
    expect(row).toMatchObject({ method: "POST", path: "/api/initdynamic", statusCode: 200, traceApi: "order-[redacted digits]" });
  });
});

describe("the batched request log", () => {
  it("stores every request's row with its fields, nulls and time as Prisma did", async () => {
    const started = new Date();
    const ok = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amount: 100, currency: "DKK", reference: "r" },
    });
    const refused = await api.call("POST", "/api/initdynamic", {
      apiKey: merchant.apiKey,
      body: { merchantid: merchant.merchantId, amount: -1, currency: "DKK" },
    });
    expect(refused.status).toBe(400);
    const anonymous = await api.call("POST", "/api/initdynamic", { apiKey: "cps_unknown", body: {} });
    expect(anonymous.status).toBe(400);
    await flushApiRequestLog();
    const rows = await db().apiRequest.findMany({
      where: { createdAt: { gte: new Date(started.getTime() - 1000) } },
      orderBy: { createdAt: "asc" },
    });
    const okRow = rows.find((row) => row.id === ok.headers.get("x-request-id"));
    expect(okRow).toMatchObject({
      merchantId: merchant.merchantId,
      method: "POST",
      path: "/api/initdynamic",
      traceApi: null,
      statusCode: 200,
      errorCode: null,
      errorDescription: null,
      idempotencyKey: null,
      idempotentReplay: false,
      apiKeyId: expect.any(String),
    });
    expect(JSON.parse(okRow!.requestBody!)).toEqual({ merchantid: merchant.merchantId, amount: 100, currency: "DKK", reference: "r" });
    expect(Math.abs(okRow!.createdAt.getTime() - started.getTime())).toBeLessThan(5_000);
    expect(rows.find((row) => row.id === refused.headers.get("x-request-id"))).toMatchObject({
      statusCode: 400,
      errorCode: "INVALID_PARAMETER",
      errorDescription: refused.body.errordescription,
    });
    // A request no key identified is counted, not stored (security review 3, L2).
    expect(rows.some((row) => row.merchantId === null)).toBe(false);
  });
});
