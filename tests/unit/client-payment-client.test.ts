// The client's HTTP: what createPaymentClient sends (path, method, Authorization, TraceApi,
// Idempotency-Key, JSON body, query) and how it answers (data, or PaymentApiError with the spec's
// body and the status), against a real node:http server on 127.0.0.1 that records each request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPaymentClient, PaymentApiError } from "@/packages/client/src/index";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let baseUrl: string;
let seen: Seen[] = [];
let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: "{}" };

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answer = { status: 200, body: JSON.stringify({ responseid: "01JRESPONSE" }) };
});

const client = () => createPaymentClient({ baseUrl, apiKey: "cps_test_key" });

describe("createPaymentClient (packages/client)", () => {
  it("initDynamic posts the JSON body with the API key, TraceApi and Idempotency-Key, and answers the session", async () => {
    const session = { merchantid: "m1", sessionid: "s".repeat(32) };
    answer = { status: 200, body: JSON.stringify(session) };
    const result = await client().initDynamic(
      { merchantid: "m1", amount: 12500, currency: "DKK", notificationurl: "https://shop.example/notify" },
      { traceApi: "trace-1", idempotencyKey: "order-77" },
    );
    expect(result).toEqual(session);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/api/initdynamic");
    expect(request!.headers.authorization).toBe("Basic cps_test_key");
    expect(request!.headers.traceapi).toBe("trace-1");
    expect(request!.headers["idempotency-key"]).toBe("order-77");
    expect(request!.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(request!.body)).toEqual({
      merchantid: "m1",
      amount: 12500,
      currency: "DKK",
      notificationurl: "https://shop.example/notify",
    });
  });

  it("capture, refund and void post to the payment's path; an omitted body is an empty object (the rest)", async () => {
    const api = client();
    await expect(api.capture("pay1", { amount: 5000 })).resolves.toEqual({ responseid: "01JRESPONSE" });
    await api.refund("pay1", { amount: 1000, notificationurl: "https://shop.example/ops" });
    await api.void("pay/2");
    expect(seen.map((request) => [request.method, request.url, JSON.parse(request.body)])).toEqual([
      ["POST", "/api/pay1/capture", { amount: 5000 }],
      ["POST", "/api/pay1/refund", { amount: 1000, notificationurl: "https://shop.example/ops" }],
      ["POST", "/api/pay%2F2/void", {}],
    ]);
    expect(seen.every((request) => request.headers.authorization === "Basic cps_test_key")).toBe(true);
    expect(seen.every((request) => request.headers["idempotency-key"] === undefined)).toBe(true);
  });

  it("authorizeMit and payout post to their paths", async () => {
    const api = client();
    await api.authorizeMit({ merchantid: "m1", paymentid: "pay1", amount: 100, currency: "EUR", paymenttype: "unscheduled" });
    answer = {
      status: 200,
      body: JSON.stringify({ responseid: "r", responsecode: "00", authorizationcode: "1", status: "approved", processor: "finaro" }),
    };
    await expect(api.payout("pay1", { amount: 100, currency: "EUR" })).resolves.toMatchObject({ status: "approved" });
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual(["POST /api/mit", "POST /api/pay1/payout"]);
  });

  it("payment details travel in the query string: asynchronous by default, sync=1 for getPayment; TraceApi but no Idempotency-Key", async () => {
    const api = client();
    await api.requestPaymentDetails(
      "pay1",
      { merchantid: "m1", notificationurl: "https://shop.example/d" },
      { traceApi: "t2", idempotencyKey: "x" },
    );
    answer = { status: 200, body: JSON.stringify({ paymentid: "pay1", amount: 100 }) };
    await expect(api.getPayment("pay1", { merchantid: "m1" })).resolves.toEqual({ paymentid: "pay1", amount: 100 });
    const [details, sync] = seen;
    expect(details!.method).toBe("GET");
    expect(new URL(details!.url, baseUrl).pathname).toBe("/api/pay1/payment");
    expect(Object.fromEntries(new URL(details!.url, baseUrl).searchParams)).toEqual({
      merchantid: "m1",
      notificationurl: "https://shop.example/d",
    });
    expect(details!.headers.traceapi).toBe("t2");
    expect(details!.headers["idempotency-key"]).toBeUndefined();
    expect(Object.fromEntries(new URL(sync!.url, baseUrl).searchParams)).toEqual({ merchantid: "m1", sync: "1" });
  });

  it("a refusal throws PaymentApiError with the HTTP status, the spec's error body and the echoed TraceApi", async () => {
    const body = { error: "INVALID_PARAMETER", errordescription: "amount: must be 1 to 12 digits (minor units)" };
    answer = { status: 400, body: JSON.stringify(body), headers: { TraceApi: "trace-9" } };
    const error = await client()
      // @ts-expect-error amounts are typed as integers of minor units; the service refuses the rest too
      .capture("pay1", { amount: "x" }, { traceApi: "trace-9" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentApiError);
    const apiError = error as PaymentApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.body).toEqual(body);
    expect(apiError.code).toBe("INVALID_PARAMETER");
    expect(apiError.traceApi).toBe("trace-9");
    expect(apiError.message).toContain("amount: must be 1 to 12 digits");

    answer = { status: 429, body: JSON.stringify({ error: "RATE_LIMITED", errordescription: "retry later" }) };
    await expect(client().void("pay1")).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("an answer that is not the spec's error shape still throws, with the status and no body", async () => {
    answer = { status: 502, body: "<html>Bad gateway</html>", headers: { "content-type": "text/html" } };
    const error = (await client()
      .initDynamic({ merchantid: "m1", amount: 1, currency: "DKK" })
      .catch((caught: unknown) => caught)) as PaymentApiError;
    expect(error).toBeInstanceOf(PaymentApiError);
    expect(error.status).toBe(502);
    expect(error.body).toBeUndefined();
    expect(error.code).toBeUndefined();
  });

  it("health answers the report for 200 and for 503", async () => {
    answer = { status: 503, body: JSON.stringify({ api: [{ api: "database", status: "error", msg: "down" }] }) };
    await expect(client().health()).resolves.toEqual({ ok: false, report: { api: [{ api: "database", status: "error", msg: "down" }] } });
  });

  it("uses the fetch it is given", async () => {
    const urls: string[] = [];
    const api = createPaymentClient({
      baseUrl,
      apiKey: "k",
      fetch: (request) => {
        urls.push(`${request.method} ${new URL(request.url).pathname}`);
        return globalThis.fetch(request);
      },
    });
    await api.capture("pay1");
    expect(urls).toEqual(["POST /api/pay1/capture"]);
  });
});
