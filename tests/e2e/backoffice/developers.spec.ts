// Back office → Developers, as a merchant's developer uses it: API calls made with the merchant's key
// (one refused, each with its own TraceApi) show in the API request log with their status, error
// code and trace, the filters narrow the list, and another merchant's requests never show; the
// notification log shows every notification of a payment with its kind and delivery state (one
// delivered, one retrying at a receiver that refuses), filters, and resend delivers the same notification again. Then
// a fresh `npm start` of its own: the demo merchant's notification address is the service's demo
// receiver, and the demo shop's payment captured with the README's command is notified there and
// shows delivered in the log. Screenshots of both pages at 1440 and 390 px.
import http from "node:http";
import { readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { demoCredentials, E2E } from "../../helpers/e2e/demo-service";
import { NEXT_YEAR, openDemoShop, pay, startNotificationReceiver, typeCard, waitForCallback, type NotificationReceiver } from "../../helpers/e2e/cardholder";
import { screenshotsAt1440And390, signIn, useServiceDatabase } from "../../helpers/e2e/backoffice";

test.describe.configure({ mode: "serial" });

const VISA = { pan: "4111111111111111", month: "12", year: NEXT_YEAR.slice(2), cvc: "123" };
const run = Date.now().toString(36);
const demo = () => demoCredentials();

let receiver: NotificationReceiver;
/** A receiver that answers 503 to everything: its notifications stay "retrying". */
let refusing: http.Server;
let refusingUrl: string;
const refused: Record<string, unknown>[] = [];

test.beforeAll(async () => {
  receiver = await startNotificationReceiver();
  refusing = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    refused.push(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>);
    res.writeHead(503).end("not now");
  });
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/refuse`;
});
test.afterAll(async () => {
  await receiver?.close();
  await new Promise<void>((resolve) => (refusing ? refusing.close(() => resolve()) : resolve()));
});

async function api(baseUrl: string, apiKey: string, method: "GET" | "POST", pathname: string, { body, trace }: { body?: unknown; trace?: string } = {}) {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Basic ${apiKey}`, "content-type": "application/json", ...(trace ? { TraceApi: trace } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const requestRows = (page: Page) => page.getByTestId("api-request-row");
const notificationRows = (page: Page) => page.getByTestId("notification-row");

test("API request log: the merchant's calls with status, error code, TraceApi and duration; filters; a request's details; nobody else's rows", async ({ page }) => {
  const okTrace = `dev-ok-${run}`;
  const badTrace = `dev-bad-${run}`;
  const ok = await api(E2E.baseURL, demo().apiKey, "POST", "/api/initdynamic", {
    trace: okTrace,
    body: { merchantid: demo().merchantId, amount: 4200, currency: "DKK", reference: "dev-log", notificationurl: receiver.url("dev-log") },
  });
  expect(ok.status).toBe(200);
  const bad = await api(E2E.baseURL, demo().apiKey, "POST", "/api/initdynamic", { trace: badTrace, body: { merchantid: demo().merchantId, amount: -5, currency: "DKK" } });
  expect(bad.body.error).toBe("INVALID_PARAMETER");

  // Another merchant's request with a TraceApi the demo merchant's log must not show.
  await useServiceDatabase();
  const { createTestMerchant } = await import("@/tests/helpers/merchant-factories");
  const { db } = await import("@/lib/db");
  const other = await createTestMerchant({ name: "Other Dev Shop", defaultNotificationUrl: receiver.url("other") });
  await db().$disconnect();
  const otherTrace = `dev-other-${run}`;
  expect((await api(E2E.baseURL, other.apiKey, "POST", "/api/initdynamic", { trace: otherTrace, body: { merchantid: other.merchantId, amount: 100, currency: "DKK" } })).status).toBe(200);

  await signIn(page, demo().email, demo().password);
  await page.getByRole("link", { name: "Developers" }).first().click();
  await expect(page).toHaveURL(/\/backoffice\/developers\/logs$/);
  await expect(page.getByRole("heading", { name: "API requests" })).toBeVisible();
  // The rows are written in batches within a moment of the answer.
  await expect(async () => {
    await page.reload();
    await expect(requestRows(page).filter({ hasText: "/api/initdynamic" }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  await page.getByLabel("TraceApi").fill(badTrace);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(requestRows(page)).toHaveCount(1);
  await expect(requestRows(page).first()).toContainText("400");
  await expect(requestRows(page).first()).toContainText("INVALID_PARAMETER");
  await expect(requestRows(page).first()).toContainText("POST /api/initdynamic");
  await expect(requestRows(page).first()).toContainText(/\d+ ms/);

  await page.getByLabel("TraceApi").fill(okTrace);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(requestRows(page)).toHaveCount(1);
  await expect(requestRows(page).first()).toContainText("200");
  await requestRows(page).first().getByRole("link").click();
  await expect(page.getByRole("heading", { name: "API request", exact: true })).toBeVisible();
  await expect(page.getByTestId("request-line")).toHaveText("POST /api/initdynamic");
  await expect(page.locator("dd", { hasText: okTrace })).toBeVisible();

  // Status class and error code filters.
  await page.goto("/backoffice/developers/logs?status=4xx");
  await expect(requestRows(page).first()).toBeVisible();
  for (const text of await requestRows(page).allTextContents()) expect(text).toMatch(/^4\d\d/); // the status is the first cell
  await page.goto(`/backoffice/developers/logs?errorCode=INVALID_PARAMETER&traceApi=${okTrace}`);
  await expect(page.getByText("No requests match these filters.")).toBeVisible();
  // A malformed query string is reported on its field, not a crash.
  await page.goto("/backoffice/developers/logs?status=3xx&from=2026-02-30");
  await expect(page.getByText("Choose 2xx, 4xx or 5xx")).toBeVisible();
  await expect(page.getByText("Use the date picker (YYYY-MM-DD)")).toBeVisible();

  // The other merchant's request: not in the list, and its detail page is a 404.
  await page.goto(`/backoffice/developers/logs?traceApi=${otherTrace}`);
  await expect(page.getByText("No requests match these filters.")).toBeVisible();
  await useServiceDatabase();
  const { db: db2 } = await import("@/lib/db");
  const theirs = await db2().apiRequest.findFirstOrThrow({ where: { traceApi: otherTrace }, select: { id: true, merchantId: true } });
  await db2().$disconnect();
  expect(theirs.merchantId).toBe(other.merchantId);
  expect((await page.goto(`/backoffice/developers/logs/${theirs.id}`))?.status()).toBe(404);

  await page.goto("/backoffice/developers/logs");
  await screenshotsAt1440And390(page, "developers-logs");
});

test("notification log: kinds and delivery states across payments, filters, and resend delivering the same notification again", async ({ page }) => {
  // A payment paid in the demo shop (completion to the receiver), captured with a notification to a
  // receiver that refuses (retrying), refunded with one to the receiver (delivered).
  const merchantPaymentId = `devorder${run}`;
  await openDemoShop(page, { notificationurl: receiver.url("dev-completion"), merchantpaymentid: merchantPaymentId, amount: 12500 });
  await typeCard(page, VISA);
  await pay(page);
  await waitForCallback(page, "jspaymentsuccess");
  const completion = await receiver.waitFor("dev-completion", (body) => body.merchantpaymentid === merchantPaymentId);
  const paymentId = String(completion.body.paymentid);
  const capture = await api(E2E.baseURL, demo().apiKey, "POST", `/api/${paymentId}/capture`, { body: { amount: 5000, notificationurl: refusingUrl } });
  expect(capture.body.responseid, JSON.stringify(capture.body)).toEqual(expect.any(String));
  // The capture is settled when its (refused) notification arrives; then there is something to refund.
  await expect.poll(() => refused.find((body) => body.responseid === capture.body.responseid)?.status, { timeout: 30_000 }).toBe("approved");
  const refund = await api(E2E.baseURL, demo().apiKey, "POST", `/api/${paymentId}/refund`, { body: { amount: 1000, notificationurl: receiver.url("dev-refund") } });
  expect(refund.body.responseid, JSON.stringify(refund.body)).toEqual(expect.any(String));
  await receiver.waitFor("dev-refund", (body) => body.responseid === refund.body.responseid);

  await signIn(page, demo().email, demo().password);
  await page.goto("/backoffice/developers/logs");
  await page.getByRole("link", { name: "Notifications" }).click();
  await expect(page).toHaveURL(/\/backoffice\/developers\/notifications$/);
  await page.getByLabel("Payment", { exact: true }).fill(merchantPaymentId);
  await page.getByRole("button", { name: "Apply" }).click();
  const rows = notificationRows(page);
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(3, { timeout: 1000 });
    await expect(rows.filter({ hasText: "capture" })).toContainText("retrying", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(rows.filter({ hasText: "completion" })).toContainText("delivered");
  await expect(rows.filter({ hasText: "completion" })).toContainText("200");
  await expect(rows.filter({ hasText: "refund" })).toContainText("delivered");
  await expect(rows.filter({ hasText: "capture" })).toContainText("503");
  await expect(rows.filter({ hasText: "capture" })).toContainText(refusingUrl);

  // Filters: kind, delivery state.
  await page.getByLabel("Kind").selectOption("capture");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId("notification-kind")).toHaveText("capture");
  await page.getByLabel("Kind").selectOption("");
  await page.getByLabel("Delivery").selectOption("delivered");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(2);
  for (const text of await rows.allTextContents()) expect(text).toContain("delivered");
  await page.getByLabel("Delivery").selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(3);
  await screenshotsAt1440And390(page, "developers-notifications");

  // Resend the refund's notification: the same notification (same webhook-id) delivered again, no copy.
  const refundRow = rows.filter({ hasText: "refund" });
  const refundId = await refundRow.getAttribute("data-notification-id");
  const before = receiver.received.filter((item) => item.path === "/dev-refund").length;
  await refundRow.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText(`Delivered again with webhook-id ${refundId}`)).toBeVisible();
  await expect.poll(() => receiver.received.filter((item) => item.path === "/dev-refund").length, { timeout: 30_000 }).toBe(before + 1);
  expect(receiver.received.filter((item) => item.path === "/dev-refund").at(-1)!.headers["webhook-id"]).toBe(refundId);
  await page.reload();
  await expect(rows.filter({ hasText: "refund" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "refund" })).toContainText("delivered");
});

test("a fresh npm start: the demo merchant is notified at the service's demo receiver, and the capture shows delivered in the log", async ({ page }) => {
  test.setTimeout(300_000);
  // A service of its own, started the way a user starts it, so no earlier test has changed the
  // demo merchant's settings (the port comes from this suite's block; the build is the suite's).
  const { startService } = await import("@/tests/helpers/service-process");
  const port = E2E.port + 1;
  const dataDir = path.resolve(`${E2E.dataDir}-fresh`);
  rmSync(dataDir, { recursive: true, force: true });
  const service = await startService({
    port,
    dataDir,
    env: { DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, DATA_DIR: dataDir },
  });
  try {
    const base = `http://localhost:${port}`;
    const fresh = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { merchantId: string; apiKey: string; email: string; password: string };
    // The start banner (printed once the background services have reported in) names the receiver.
    await expect.poll(() => service.output(), { timeout: 60_000 }).toContain(`Notifications ${base}/demo-shop/notifications`);

    // The demo shop initializes with no notificationurl: the window's result goes to the demo receiver.
    await page.goto(`http://127.0.0.1:${port}/demo-shop?set3ds=SKIP_3DS&merchantpaymentid=fresh${run}`);
    await waitForCallback(page, "jsinitsuccess");
    await typeCard(page, VISA);
    await pay(page);
    await waitForCallback(page, "jspaymentsuccess");

    // The README's capture command, as written (no notificationurl).
    const capture = await api(base, fresh.apiKey, "POST", `/api/fresh${run}/capture`, { body: { amount: 5000, note: "first shipment" } });
    expect(capture.body.responseid, JSON.stringify(capture.body)).toEqual(expect.any(String));

    await page.goto(`${base}/backoffice/sign-in`);
    await page.getByLabel("Email").fill(fresh.email);
    await page.getByLabel("Password").fill(fresh.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/backoffice$/);
    await page.goto(`${base}/backoffice/settings/notifications`);
    await expect(page.getByLabel("Default notification URL")).toHaveValue(`${base}/demo-shop/notifications`);
    await page.goto(`${base}/backoffice/developers/notifications?paymentId=fresh${run}`);
    const rows = notificationRows(page);
    await expect(async () => {
      await page.reload();
      await expect(rows.filter({ hasText: "capture" })).toContainText("delivered", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(rows.filter({ hasText: "capture" })).toContainText(`${base}/demo-shop/notifications`);
    await expect(rows.filter({ hasText: "capture" })).toContainText("200");
    await expect(rows.filter({ hasText: "completion" })).toContainText("delivered");
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
