// One full payment as a merchant and a cardholder make it (initdynamic, the hosted-field payment
// with the card, a capture run by the embedded executor against the acquirer sandbox, its
// notification), watched the way an operator does: the JSON log lines the logger writes, a scrape
// of /metrics, and the spans exported to an OTLP/HTTP collector (an in-process receiver here).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { merchantApiFunctions } from "@/lib/jobs/merchant-api";
import { captureLogs } from "@/lib/observability/logger";
import { flushTracing, startTracing, stopTracing } from "@/lib/observability/tracing";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import * as metricsRoute from "@/app/metrics/route";
import { startInngestHarness, type InngestHarness } from "@/tests/helpers/inngest-harness";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { serveOnHttp, type MountedRoute } from "@/tests/helpers/serve-on-http";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { startHostedFieldsServer, type HostedFieldsServer } from "../../helpers/hosted-fields-server";
import { eventually } from "@/tests/helpers/eventually";

useTestDatabase();

// An approved amex: its digits and its 4-digit security code are distinctive enough to search for.
const PAN = "378282246310005";
const SECURITY_CODE = "7319";
const MERCHANT_ORIGIN = "http://shop.example";
const METRICS_TOKEN = "metrics-token-for-the-test-0123456789";

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** A minimal OTLP/HTTP collector: keeps every span of every JSON export to /v1/traces. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ExportedSpan[]; close: () => Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.headers["content-type"]?.includes("json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans?: { scopeSpans?: { spans?: ExportedSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let api: MerchantApiHarness;
let hosted: HostedFieldsServer;
let harness: InngestHarness;
let sandboxes: RunningSandboxes;
let receiver: NotificationReceiver;
let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;
let metricsEndpoint: MountedRoute;
let merchant: TestMerchant;
let logs: ReturnType<typeof captureLogs>;
const requestIds: string[] = [];
let paymentId = "";
let captureRequestId = "";

beforeAll(async () => {
  process.env.METRICS_TOKEN = METRICS_TOKEN;
  resetConfig();
  collector = await startOtlpReceiver();
  startTracing({ endpoint: collector.url, exportDelayMs: 100 });
  sandboxes = await startSandboxes({ processors: ["finaro", "clearhaus", "bambora"], threeDs: false, extensions: true });
  receiver = await startNotificationReceiver();
  api = await startMerchantApi();
  hosted = await startHostedFieldsServer();
  harness = await startInngestHarness({ functions: merchantApiFunctions });
  metricsEndpoint = await serveOnHttp({ handlers: { GET: metricsRoute.GET }, path: "/metrics" });
  merchant = await createTestMerchant({ defaultNotificationUrl: receiver.url });

  logs = captureLogs({ level: "debug" });
  // 1. The merchant opens a payment window.
  const opened = await api.call("POST", "/api/initdynamic", {
    apiKey: merchant.apiKey,
    headers: { TraceApi: "trace-full-payment" },
    body: { merchantid: merchant.merchantId, merchantpaymentid: "order1001", amount: 2500, currency: "DKK", set3ds: "SKIP_3DS" },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  requestIds.push(opened.headers.get("x-request-id")!);
  const sessionId = String(opened.body.sessionid);

  // 2. The cardholder pays in the hosted fields, with the card.
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${hosted.origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: hosted.origin },
      body: JSON.stringify(body),
    });
    requestIds.push(response.headers.get("x-request-id")!);
    return (await response.json()) as Record<string, unknown>;
  };
  const started = await post(`/dynamic/${sessionId}/payments`, {});
  paymentId = String(started.paymentid);
  const card = { pan: PAN, expmonth: "12", expyear: String(new Date().getUTCFullYear() + 2), securitycode: SECURITY_CODE };
  const paid = await post(`/dynamic/${sessionId}/payments/${paymentId}/authorize`, {
    card,
    binding: createOriginBinding(sessionId, MERCHANT_ORIGIN),
  });
  expect(paid).toMatchObject({ result: "approved", paymentid: paymentId });

  // 3. The merchant captures; the executor calls the acquirer and notifies.
  const captured = await api.call("POST", `/api/${paymentId}/capture`, {
    apiKey: merchant.apiKey,
    headers: { TraceApi: "trace-full-payment" },
    body: { amount: 2500 },
  });
  expect(captured.status, JSON.stringify(captured.body)).toBe(200);
  captureRequestId = captured.headers.get("x-request-id")!;
  requestIds.push(captureRequestId);
  const responseId = String(captured.body.responseid);
  await eventually(() => receiver.received.some((notification) => notification.body.responseid === responseId), { what: "the capture's notification", timeoutMs: 30_000, intervalMs: 25 });
  await harness.waitUntilIdle();
  logs.stop();
  await flushTracing();
}, 180_000);

afterAll(async () => {
  logs?.stop();
  await stopTracing();
  await harness?.stop();
  await metricsEndpoint?.close();
  await hosted?.close();
  await api?.close();
  await receiver?.close();
  await sandboxes?.close();
  await collector?.close();
  delete process.env.METRICS_TOKEN;
  resetConfig();
});

/** Any 6 consecutive digits of the PAN past its BIN (the BIN and last 4 may be shown), grouped or not. */
function holdsPanDigits(text: string): boolean {
  const digitsOnly = text.replace(/[ -]/g, "");
  for (let start = 6; start + 6 <= PAN.length; start++) if (digitsOnly.includes(PAN.slice(start - 5, start + 1))) return true;
  return false;
}

describe("logs of a full payment", () => {
  it("are JSON lines, and every line written for a request carries its request id (and TraceApi for the merchant's)", () => {
    const entries = logs.entries();
    expect(entries.length).toBeGreaterThan(5);
    for (const line of logs.lines()) expect(() => JSON.parse(line)).not.toThrow();
    // One access line per request we made, each with the id the response carried.
    const access = entries.filter((entry) => entry.event === "http.access");
    expect(access.map((entry) => entry.requestId).sort()).toEqual([...requestIds].sort());
    for (const entry of access) {
      expect(entry).toMatchObject({ method: "POST", status: 200, durationMs: expect.any(Number) });
      expect(typeof entry.route).toBe("string");
    }
    expect(access.filter((entry) => String(entry.route).startsWith("/api/")).every((entry) => entry.traceApi === "trace-full-payment")).toBe(true);
    // Every line is either part of a request (request id) or of a background job (run id).
    const requestLines = entries.filter((entry) => entry.requestId !== undefined);
    const jobLines = entries.filter((entry) => entry.runId !== undefined);
    expect(entries.filter((entry) => entry.requestId === undefined && entry.runId === undefined && entry.component !== "executor")).toEqual([]);
    for (const entry of requestLines) expect(requestIds).toContain(entry.requestId);
    // The acquirer calls: the authorization within the cardholder's request, the capture within the job.
    const acquirer = entries.filter((entry) => entry.event === "acquirer.call");
    expect(acquirer.map((entry) => entry.operation).sort()).toEqual(["authorize", "capture"]);
    expect(acquirer.find((entry) => entry.operation === "authorize")).toMatchObject({ requestId: requestIds[2], outcome: "approved" });
    expect(acquirer.find((entry) => entry.operation === "capture")).toMatchObject({ outcome: "approved", runId: expect.any(String) });
    for (const entry of acquirer) expect(entry).toMatchObject({ processor: expect.any(String), durationMs: expect.any(Number) });
    // The notification attempt and the job's own lines.
    expect(entries.some((entry) => entry.event === "notification.attempt" && entry.outcome === "delivered")).toBe(true);
    expect(jobLines.some((entry) => entry.event === "job.start")).toBe(true);
    expect(jobLines.some((entry) => entry.event === "job.call")).toBe(true);
  });

  it("hold no card number and no security code anywhere", () => {
    const text = logs.lines().join("\n");
    expect(text.length).toBeGreaterThan(1_000);
    expect(holdsPanDigits(`card ${PAN} and grouped ${PAN.slice(0, 4)} ${PAN.slice(4, 10)} ${PAN.slice(10)}`)).toBe(true); // the search finds it
    expect(holdsPanDigits(text)).toBe(false);
    expect(text).not.toMatch(new RegExp(`\\b${SECURITY_CODE}\\b`));
  });
});

describe("metrics", () => {
  async function scrape(token?: string): Promise<{ status: number; text: string }> {
    const response = await fetch(metricsEndpoint.url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, text: await response.text() };
  }

  function sample(text: string, name: string, labels: Record<string, string> = {}): number {
    const lines = text.split("\n").filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
    const matching = lines.filter((line) => Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)));
    return matching.reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
  }

  it("/metrics needs the bearer token", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("wrong-token-wrong-token-wrong")).status).toBe(401);
  });

  it("has the request, acquirer, notification, executor, pool and process families with the payment's values", async () => {
    const { status, text } = await scrape(METRICS_TOKEN);
    expect(status).toBe(200);
    expect(sample(text, "cps_http_requests_total", { route: "/api/initdynamic", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "cps_http_requests_total", { route: "/api/{paymentid}/capture", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "cps_http_requests_total", { route: "/dynamic/{sessionid}/payments/{paymentid}/authorize" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "cps_http_request_duration_seconds_count", { route: "/api/{paymentid}/capture" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "cps_acquirer_calls_total", { operation: "authorize", outcome: "approved" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "cps_acquirer_calls_total", { operation: "capture", outcome: "approved" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "cps_acquirer_call_duration_seconds_sum", { operation: "capture" })).toBeGreaterThan(0);
    expect(sample(text, "cps_notification_attempts_total", { outcome: "delivered" })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^cps_notification_backlog \d+$/m);
    expect(text).toMatch(/^cps_notification_oldest_pending_age_seconds [\d.e+-]+$/m);
    expect(text).toMatch(/^cps_executor_queue_depth\{state="due"\} \d+$/m);
    expect(text).toMatch(/^cps_executor_oldest_due_job_lag_seconds [\d.e+-]+$/m);
    expect(sample(text, "cps_jobs_total", { outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect(text).toContain("# TYPE cps_job_failures_total counter");
    expect(sample(text, "cps_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("reports the backlog the database holds", async () => {
    const pending = await db().notification.count({ where: { status: "pending" } });
    expect(sample((await scrape(METRICS_TOKEN)).text, "cps_notification_backlog")).toBe(pending);
  });
});

describe("traces", () => {
  it("the capture request, its function run, the acquirer call and the notification delivery are one trace", () => {
    const request = collector.spans.find(
      (span) => span.name === "POST /api/{paymentid}/capture" && span.attributes?.some((a) => a.key === "cps.request_id" && a.value.stringValue === captureRequestId),
    );
    expect(request, JSON.stringify(collector.spans.map((span) => span.name))).toBeDefined();
    const trace = collector.spans.filter((span) => span.traceId === request!.traceId);
    const names = trace.map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "POST /api/{paymentid}/capture",
        "inngest run-follow-up-operation",
        expect.stringMatching(/^acquirer (finaro|clearhaus|bambora) capture$/),
        "notification delivery",
      ]),
    );
    // Every span of the trace hangs from the request: the chain of parents ends at it.
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    for (const span of trace) {
      let current: ExportedSpan | undefined = span;
      while (current?.parentSpanId && byId.has(current.parentSpanId)) current = byId.get(current.parentSpanId);
      expect(current?.spanId).toBe(request!.spanId);
    }
    // The cardholder's payment is a trace of its own.
    const authorize = collector.spans.find((span) => span.name === "POST /dynamic/{sessionid}/payments/{paymentid}/authorize");
    expect(authorize?.traceId).toBeDefined();
    expect(authorize?.traceId).not.toBe(request!.traceId);
  });
});
