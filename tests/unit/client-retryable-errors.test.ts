// PaymentApiError tells a merchant's code whether to send the same request again: the service's 503
// SERVICE_UNAVAILABLE (overload, nothing was done) is retryable after its Retry-After; a 500
// INTERNAL_ERROR, a refusal of the request itself, or a 503 page from something in between that
// does not speak the service's error body, are not. Against a real node:http server on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentClient, PaymentApiError } from "@/packages/client/src/index";

let server: http.Server;
let baseUrl: string;
let answer: { status: number; body: string; headers?: Record<string, string> };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(answer.status, answer.headers ?? { "content-type": "application/json" }).end(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function captureError(): Promise<PaymentApiError> {
  const client = createPaymentClient({ baseUrl, apiKey: "cps_test_key" });
  const error = await client.capture("p1", { amount: 100 }, { idempotencyKey: "order-1-capture" }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(PaymentApiError);
  return error as PaymentApiError;
}

describe("PaymentApiError.retryable and retryAfterSeconds (packages/client)", () => {
  it("503 SERVICE_UNAVAILABLE with Retry-After: retryable, after that many seconds", async () => {
    answer = {
      status: 503,
      headers: { "content-type": "application/json", "retry-after": "2" },
      body: JSON.stringify({ error: "SERVICE_UNAVAILABLE", errordescription: "the service is temporarily unavailable (overloaded) and nothing was done" }),
    };
    const error = await captureError();
    expect(error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", retryable: true, retryAfterSeconds: 2 });
  });

  it("429 RATE_LIMITED with Retry-After as an HTTP date: retryable, the date read as seconds from now", async () => {
    answer = {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": new Date(Date.now() + 30_000).toUTCString() },
      body: JSON.stringify({ error: "RATE_LIMITED", errordescription: "too many requests" }),
    };
    const error = await captureError();
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(30);
  });

  it("500 INTERNAL_ERROR and 400 INVALID_PARAMETER: not retryable, no Retry-After", async () => {
    answer = { status: 500, body: JSON.stringify({ error: "INTERNAL_ERROR", errordescription: "unexpected error; quote request id x" }) };
    expect(await captureError()).toMatchObject({ retryable: false, retryAfterSeconds: undefined });
    answer = { status: 400, body: JSON.stringify({ error: "INVALID_PARAMETER", errordescription: "amount: must be 1 to 12 digits" }) };
    expect(await captureError()).toMatchObject({ retryable: false, retryAfterSeconds: undefined });
  });

  it("a 503 page from something in between (no error body): not retryable, since nobody said nothing was done", async () => {
    answer = { status: 503, headers: { "content-type": "text/html", "retry-after": "5" }, body: "<html>Service Unavailable</html>" };
    const error = await captureError();
    expect(error).toMatchObject({ status: 503, code: undefined, body: undefined, retryable: false, retryAfterSeconds: 5 });
  });
});
