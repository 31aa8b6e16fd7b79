// A back office that never misleads (issue 28, newcomer review F6-F13 and the minors), in Chromium
// against the real service. A merchant is seeded with payments whose figures are worked out here
// from the seed (two currencies, a payment that fell back from finaro to clearhaus, one finaro
// decline, one older than 30 days) and notifications in every delivery state; its notification
// address is a receiver of this file that refuses until told to accept. Each test is named after
// what it proves; screenshots at 1440 and 390 px go to test-results/screenshots/.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { formatMoney } from "@/components/backoffice/format";
import { demoCredentials, E2E, withServiceDatabase } from "../../helpers/e2e/demo-service";
import { field, openDemoShop } from "../../helpers/e2e/cardholder";
import { screenshotsAt1440And390, signIn, signOut, useServiceDatabase, WIDE_AND_PHONE } from "../../helpers/e2e/backoffice";
import { readJsonObject } from "../../helpers/json-body";

// Not serial: a failing test restarts the worker, which seeds a merchant of its own for the rest.

const PASSWORD = "clear-password-1";
const DAY = 86_400_000;
const run = Date.now().toString(36);
let email = "";
let merchantId = "";
let apiKey = "";
/** Payment ids by seed name. */
const ids: Record<string, string> = {};

/** The merchant's receiver: answers 503 until `accepting`, then 200; keeps every POST. */
let receiver: http.Server;
let receiverUrl = "";
let accepting = false;
const posts: { path: string; webhookId: string; status: number; body: Record<string, unknown> }[] = [];

const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

test.beforeAll(async () => {
  receiver = http.createServer(async (req, res) => {
    const body = await readJsonObject(req);
    const status = accepting ? 200 : 503;
    posts.push({ path: req.url ?? "/", webhookId: String(req.headers["webhook-id"]), status, body });
    res.writeHead(status).end(status === 200 ? "ok" : "not now");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  await useServiceDatabase();
  const { createTestMerchant, createTestPayment } = await import("@/tests/helpers/merchant-factories");
  const { createUser } = await import("@/lib/users/create-user");
  const { db } = await import("@/lib/db");
  const { newId } = await import("@/lib/ids");

  const merchant = await createTestMerchant({ name: "Clear Shop", defaultNotificationUrl: `${receiverUrl}/default` });
  merchantId = merchant.merchantId;
  apiKey = merchant.apiKey;
  email = `clear-${run}@example.com`;
  await createUser({ merchantId, email, name: "Clear Owner", password: PASSWORD, role: "OWNER" });

  // A: captured 50 and refunded 15 of 125 DKK (partially refunded), found by email, reference and last4.
  ids.a = (
    await createTestPayment({
      merchantId,
      merchantPaymentId: "clearorder1001",
      status: "REFUNDED",
      amount: 12_500n,
      captures: [5_000n],
      refunds: [1_500n],
      reference: "inv-2026-0042",
      customer: { email: "Ada.Lovelace@example.com" },
      withStoredCard: { pan: "4242424242424242" },
    })
  ).paymentId;
  // B: declined by finaro, then approved by clearhaus (routing fallback).
  ids.b = (await createTestPayment({ merchantId, merchantPaymentId: "clearorder1002", status: "AUTHORIZED", amount: 8_000n, reference: "inv-2026-0043" })).paymentId;
  await db().operation.updateMany({ where: { paymentId: ids.b, type: "authorize" }, data: { routingAttempt: 2 } });
  await db().operation.create({
    data: { id: newId(), paymentId: ids.b, type: "authorize", paymentType: "cit", amount: 8_000n, currency: "DKK", status: "declined", processor: "finaro", routingAttempt: 1, responseCode: "05", errorMessage: "do not honour", createdAt: new Date(Date.now() - 120_000), completedAt: new Date(Date.now() - 119_000) },
  });
  // C: declined by finaro, nobody else tried.
  ids.c = (await createTestPayment({ merchantId, merchantPaymentId: "clearorder1003", status: "DECLINED", amount: 3_000n, processor: "finaro", reference: "inv-2026-0044" })).paymentId;
  await db().operation.create({
    data: { id: newId(), paymentId: ids.c, type: "authorize", paymentType: "cit", amount: 3_000n, currency: "DKK", status: "declined", processor: "finaro", responseCode: "05", errorMessage: "do not honour", completedAt: new Date() },
  });
  // F: approved by finaro.
  ids.f = (await createTestPayment({ merchantId, merchantPaymentId: "clearorder1004", status: "AUTHORIZED", amount: 1_000n, processor: "finaro", reference: "inv-2026-0045" })).paymentId;
  // D: 20 EUR captured in full by bambora.
  ids.d = (await createTestPayment({ merchantId, merchantPaymentId: "clearorder2001", status: "CAPTURED", amount: 2_000n, currency: "EUR", captures: [2_000n], processor: "bambora", reference: "inv-2026-0046" })).paymentId;
  // E: 10 DKK captured 40 days ago: outside the default 30 days, inside a range that reaches back 45.
  ids.e = (await createTestPayment({ merchantId, merchantPaymentId: "clearorderold", status: "CAPTURED", amount: 1_000n, captures: [1_000n], reference: "inv-2025-0001" })).paymentId;
  await db().payment.update({ where: { id: ids.e }, data: { createdAt: new Date(Date.now() - 40 * DAY) } });

  // Notifications of A: 2 delivered, 2 retrying (4 refused attempts, the next in two hours), 1 failed.
  const seeded = [
    { status: "delivered", attemptCount: 1 },
    { status: "delivered", attemptCount: 2 },
    { status: "pending", attemptCount: 4, nextAttemptAt: new Date(Date.now() + 2 * 3600_000) },
    { status: "pending", attemptCount: 4, nextAttemptAt: new Date(Date.now() + 2 * 3600_000) },
    { status: "failed", attemptCount: 8 },
  ] as const;
  for (const [index, entry] of seeded.entries()) {
    await db().notification.create({
      data: { id: `msg_seed${run}${index}`, merchantId, mode: "test" as const, paymentId: ids.a, kind: "capture", url: `${receiverUrl}/seeded`, body: "{}", status: entry.status, attemptCount: entry.attemptCount, nextAttemptAt: "nextAttemptAt" in entry ? entry.nextAttemptAt : null },
    });
  }
  await db().$disconnect();
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function api(method: "GET" | "POST", pathname: string, { body, trace, idempotencyKey }: { body?: unknown; trace?: string; idempotencyKey?: string } = {}) {
  const response = await fetch(`${E2E.baseURL}${pathname}`, {
    method,
    headers: {
      authorization: `Basic ${apiKey}`,
      "content-type": "application/json",
      ...(trace ? { TraceApi: trace } : {}),
      ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const row = (page: Page, testId: string, text: string): Locator => page.getByTestId(testId).filter({ hasText: text });

test("F13, F12: the overview shows each acquirer's declines, captured, refunded and net volume per currency over a chosen range, and counts only delivered notifications as delivered", async ({ page }) => {
  await signIn(page, email, PASSWORD);

  // By processor: every authorization attempt counts for the acquirer that answered it. finaro
  // declined B (then clearhaus approved it) and C, and approved F: 1 of 3. Per finished payment it
  // read 1 of 2 (B counted under clearhaus only).
  const finaro = row(page, "processor-row", "finaro");
  await expect(finaro.getByTestId("processor-approval-rate")).toHaveText("33.3%");
  await expect(finaro.getByTestId("processor-declined")).toHaveText("2");
  await expect(row(page, "processor-row", "clearhaus").getByTestId("processor-approval-rate")).toHaveText("100.0%");

  // Volume per currency, every currency totalled (not only the most used one).
  const dkk = page.locator('[data-testid="currency-row"][data-currency="DKK"]');
  const eur = page.locator('[data-testid="currency-row"][data-currency="EUR"]');
  await expect(dkk.getByTestId("currency-captured")).toHaveText(formatMoney(5_000n, "DKK"));
  await expect(dkk.getByTestId("currency-refunded")).toHaveText(formatMoney(1_500n, "DKK"));
  await expect(dkk.getByTestId("currency-net")).toHaveText(formatMoney(3_500n, "DKK"));
  await expect(eur.getByTestId("currency-captured")).toHaveText(formatMoney(2_000n, "EUR"));
  await expect(eur.getByTestId("currency-net")).toHaveText(formatMoney(2_000n, "EUR"));
  await expect(page.getByTestId("captured-volume")).toHaveText(formatMoney(5_000n, "DKK"));
  await expect(page.getByTestId("refunded-volume")).toHaveText(formatMoney(1_500n, "DKK"));
  await expect(page.getByTestId("net-volume")).toHaveText(formatMoney(3_500n, "DKK"));

  // Delivered means delivered: 2 of 5 (2 retrying, 1 failed), not 2 of 3 decided.
  await expect(page.getByTestId("notification-success-rate")).toHaveText("40.0%");
  await expect(page.getByText("2 of 5 delivered")).toBeVisible();
  await expect(page.getByTestId("notifications-retrying")).toHaveText("2");
  // One word per state: the stored "pending" after refused attempts is "retrying" on every page.
  await expect(page.getByText(/\bpending\b/i)).toHaveCount(0);
  await screenshotsAt1440And390(page, "overview-range-currencies");
  for (const { width, height } of WIDE_AND_PHONE) {
    await page.setViewportSize({ width, height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `the overview scrolls sideways at ${width} px`).toBeLessThanOrEqual(1);
  }

  // A range reaching back 45 days takes in the older payment.
  await page.getByLabel("From (UTC)").fill(utcDay(-45));
  await page.getByLabel("To (UTC)").fill(utcDay(0));
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${utcDay(-45)}`));
  await expect(dkk.getByTestId("currency-captured")).toHaveText(formatMoney(6_000n, "DKK"));
  await expect(dkk.getByTestId("currency-net")).toHaveText(formatMoney(4_500n, "DKK"));
  await expect(page.getByLabel("From (UTC)")).toHaveValue(utcDay(-45));
  // A range that ends before it starts is refused on its field, and the default period applies.
  await page.goto(`/backoffice?from=${utcDay(0)}&to=${utcDay(-3)}`);
  await expect(page.getByText("The end date is before the start date")).toBeVisible();
  await expect(dkk.getByTestId("currency-captured")).toHaveText(formatMoney(5_000n, "DKK"));

  // The payment page and Developers → Notifications use the same words.
  await page.goto(`/backoffice/payments/${ids.a}`);
  await expect(page.getByTestId("notification").filter({ hasText: "retrying" })).toHaveCount(2);
  await expect(page.getByTestId("notification").filter({ hasText: /\bpending\b/ })).toHaveCount(0);
  await page.goto(`/backoffice/developers/notifications?paymentId=${ids.a}&status=retrying`);
  await expect(page.getByTestId("notification-row")).toHaveCount(2);
});

test("F8: partially refunded is what the list, the CSV export and the API's refusal say", async ({ page }) => {
  const refused = await api("POST", `/api/${ids.a}/void`, { body: {}, trace: `void-${run}` });
  expect(refused.status).toBe(400);
  expect(refused.body.errordescription).toBe("paymentid: the payment cannot be voided in its state (partially refunded)");

  await signIn(page, email, PASSWORD);
  await page.goto("/backoffice/payments?q=clearorder1001");
  await expect(page.getByTestId("payment-row")).toHaveCount(1);
  await expect(page.getByTestId("payment-state")).toHaveText("Partially refunded");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8").trim().split("\r\n");
  const header = csv[0]!.split(",");
  const cells = csv[1]!.split(",");
  expect(cells[header.indexOf("status")]).toBe("partially_refunded");
  expect(cells[header.indexOf("paymentid")]).toBe(ids.a);
});

test("F10: the payments table fits 1280 and 1440 px without a sideways scroll", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto("/backoffice/payments");
  await expect(page.getByTestId("payment-row")).toHaveCount(6);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const table = page.getByRole("table", { name: "Payments" });
    const overflow = await table.evaluate((element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth);
    expect(overflow, `the table scrolls sideways by ${overflow}px at ${width} px`).toBeLessThanOrEqual(0);
    const created = await page.getByRole("columnheader", { name: "Created (UTC)" }).boundingBox();
    expect(created!.x + created!.width, `Created is inside the window at ${width} px`).toBeLessThanOrEqual(width);
  }
  await screenshotsAt1440And390(page, "payments-fit");
});

test("F7: a rejected settings form keeps what was typed", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto("/backoffice/settings/notifications");
  const url = page.getByLabel("Default notification URL");
  await expect(url).toHaveValue(`${receiverUrl}/default`);
  await url.fill("not a url");
  await page.getByLabel("Life-cycle URL").fill(`${receiverUrl}/life`);
  await page.getByRole("button", { name: "Save URLs" }).click();
  await expect(page.getByText("Enter a full address such as https://shop.example/notifications")).toBeVisible();
  await expect(url).toHaveValue("not a url");
  await expect(page.getByLabel("Life-cycle URL")).toHaveValue(`${receiverUrl}/life`);
  await screenshotsAt1440And390(page, "notification-urls-rejected");

  await page.goto("/backoffice/settings/hosted");
  const origins = page.getByLabel("Allowed checkout origins");
  await origins.fill("https://shop.example/checkout");
  await page.getByRole("button", { name: "Save origins" }).click();
  await expect(page.locator("#merchant-checkout-origins-error, [role=alert]").first()).toBeVisible();
  await expect(origins).toHaveValue("https://shop.example/checkout");

  await page.goto("/backoffice/settings/team");
  await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByText("Check the highlighted fields.")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Grace Hopper");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("not-an-email");
});

test("F9: Resend delivers the same notification (same webhook-id) and its retries stop; no copy under a new id", async ({ page }) => {
  test.setTimeout(120_000);
  const lookup = await api("GET", `/api/${ids.a}/payment?notificationurl=${encodeURIComponent(`${receiverUrl}/details`)}`);
  expect(lookup.body.responseid, JSON.stringify(lookup.body)).toEqual(expect.any(String));
  // The immediate attempt and the three 3-second retries are refused; the next one is an hour away.
  await expect.poll(() => posts.filter((post) => post.path === "/details").length, { timeout: 60_000 }).toBe(4);
  const webhookId = posts.find((post) => post.path === "/details")!.webhookId;
  expect(webhookId).toMatch(/^msg_/);

  await signIn(page, email, PASSWORD);
  await page.goto(`/backoffice/payments/${ids.a}`);
  const details = page.getByTestId("notification").filter({ hasText: "payment details" });
  await expect(async () => {
    await page.reload();
    await expect(details).toContainText("retrying", { timeout: 1000 });
    await expect(details).toContainText("next attempt", { timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  accepting = true;
  await details.getByRole("button", { name: "Resend" }).click();
  await expect(details.getByRole("status")).toContainText(webhookId);
  await expect.poll(() => posts.filter((post) => post.path === "/details").length).toBe(5);
  const resent = posts.filter((post) => post.path === "/details")[4]!;
  expect(resent).toMatchObject({ webhookId, status: 200 });
  expect(resent.body.responseid).toBe(lookup.body.responseid);

  await page.reload();
  await expect(details).toHaveCount(1);
  await expect(details).toContainText("delivered");
  await expect(details).not.toContainText("next attempt");
  await expect(details.getByTestId("attempt-resend")).toHaveCount(1);
  await screenshotsAt1440And390(page, "payment-resend-same-id");
  await page.goto(`/backoffice/developers/notifications?paymentId=${ids.a}&kind=payment_details`);
  await expect(page.getByTestId("notification-row")).toHaveCount(1);
  await expect(page.getByTestId("notification-row")).toContainText("delivered");
});

test("F11: the request log shows the error description, both bodies with card numbers masked, the key, and an idempotent replay", async ({ page }) => {
  const card = "4111 1111 1111 1111";
  expect((await api("POST", `/api/${ids.a}/void`, { body: {}, trace: `void-log-${run}` })).status).toBe(400);
  const first = await api("POST", "/api/initdynamic", { trace: `init-1-${run}`, idempotencyKey: `clear-${run}`, body: { merchantid: merchantId, amount: 4200, currency: "DKK", reference: card } });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const replay = await api("POST", "/api/initdynamic", { trace: `init-2-${run}`, idempotencyKey: `clear-${run}`, body: { merchantid: merchantId, amount: 4200, currency: "DKK", reference: card } });
  expect(replay.body).toEqual(first.body);

  await signIn(page, email, PASSWORD);
  const open = async (trace: string) => {
    await expect(async () => {
      await page.goto(`/backoffice/developers/logs?traceApi=${trace}`);
      await expect(page.getByTestId("api-request-row")).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await page.getByTestId("api-request-row").getByRole("link").click();
    await expect(page.getByRole("heading", { name: "API request", exact: true })).toBeVisible();
  };
  const value = (term: string) => page.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd[1]");

  await open(`void-log-${run}`);
  await expect(value("Error description")).toHaveText("paymentid: the payment cannot be voided in its state (partially refunded)");
  await expect(page.getByTestId("response-body")).toContainText('"errordescription"');
  await expect(page.getByTestId("request-body")).toContainText("{}");
  await expect(value("API key")).toContainText("Test key");
  await expect(value("Idempotent replay")).toHaveText("No");
  // The refusal carried no responseid, so none is shown as if the client had received one.
  await expect(page.locator("dt", { hasText: /^responseid$/ })).toHaveCount(0);
  await expect(value("Request id \\(X-Request-Id\\)")).not.toBeEmpty();
  await screenshotsAt1440And390(page, "request-log-error");

  await open(`init-2-${run}`);
  await expect(value("Idempotent replay")).toHaveText(`Yes: the answer first given to Idempotency-Key clear-${run}`);
  // initdynamic answers no responseid: none is shown for it either.
  await expect(page.locator("dt", { hasText: /^responseid$/ })).toHaveCount(0);
  await expect(page.getByTestId("request-body")).toContainText("[redacted digits]");
  await expect(page.getByTestId("response-body")).toContainText(String(first.body.sessionid));
  const text = await page.locator("main").textContent();
  expect(text).not.toContain(card);
  expect(text).not.toContain(card.replaceAll(" ", ""));
  await screenshotsAt1440And390(page, "request-log-replay");
});

test("F6: hosted fields styled 52 px tall with 12 px corners are framed whole at checkout, and the preview is sized the same", async ({ page }) => {
  const hostedId = `tall${run}`;
  const styling = { height: "52px", borderRadius: "12px", borderColor: "#0f172a" };
  const integrationId = `hi_${hostedId}`;
  await withServiceDatabase((client) =>
    client.query(`INSERT INTO "HostedIntegration" ("id", "merchantId", "hostedId", "name", "styling", "updatedAt") VALUES ($1, $2, $3, $4, $5, now())`, [
      integrationId,
      demoCredentials().merchantId,
      hostedId,
      "Tall fields",
      JSON.stringify(styling),
    ]),
  );
  await openDemoShop(page, { hostedid: hostedId });
  const heights: Record<string, number> = {};
  for (const id of ["pan", "expmonth", "expyear", "securitycode"]) {
    const frame = page.locator(`#${id} iframe`);
    const frameHeight = await frame.evaluate((element) => element.getBoundingClientRect().height);
    const input = await field(page, id).locator("input").evaluate((element) => {
      const box = element.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: box.height };
    });
    expect(input.height, `${id}: the styled height applies`).toBe(52);
    expect(input.top, `${id}: the top border is inside the frame`).toBeGreaterThanOrEqual(0);
    expect(input.bottom, `${id}: the bottom border is inside the frame`).toBeLessThanOrEqual(frameHeight);
    heights[id] = frameHeight;
  }
  await screenshotsAt1440And390(page, "checkout-fields-52px");

  const demo = demoCredentials();
  await signIn(page, demo.email, demo.password);
  await page.goto(`/backoffice/settings/hosted/${integrationId}`);
  const preview = page.getByTestId("preview-pan");
  await expect(preview.contentFrame().locator("input")).toBeVisible();
  const previewHeight = await preview.evaluate((element) => element.clientHeight);
  expect(previewHeight, "the preview frame is the checkout frame's height").toBe(heights.pan);
  const inside = await preview.contentFrame().locator("input").evaluate((element) => element.getBoundingClientRect().bottom);
  expect(inside).toBeLessThanOrEqual(previewHeight);
  await screenshotsAt1440And390(page, "hosted-preview-52px");
  await signOut(page);
});

test("minors: search by prefix of merchantpaymentid, reference and email and by last4; the title names the order", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  const search = async (q: string) => {
    await page.goto(`/backoffice/payments?q=${encodeURIComponent(q)}`);
    return page.getByTestId("payment-row");
  };
  await expect(await search("clearorder10")).toHaveCount(4);
  await expect(await search("inv-2026-004")).toHaveCount(5);
  await expect(await search("ada.lovelace@")).toHaveCount(1);
  await expect(await search("Ada.Lovelace@Example.com")).toHaveCount(1);
  await expect(await search("4242")).toHaveCount(1);
  await expect(page.getByTestId("payment-row")).toContainText(ids.a!);
  await screenshotsAt1440And390(page, "payments-search-prefix");

  await page.goto(`/backoffice/payments/${ids.a}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("clearorder1001");
  await expect(page).toHaveTitle(/clearorder1001/);
});

test("minors: a refund takes a reason, shown on the payment page and in the audit log with the amount in major units and its currency", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto(`/backoffice/payments/${ids.d}`);
  await page.getByLabel("Amount to refund (EUR)").fill("5");
  await page.getByLabel("Reason").selectOption({ label: "Requested by the customer" });
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByText(/^Refund requested \(responseid/)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("operation").filter({ hasText: "refund" })).toContainText("Reason: Requested by the customer");
  await screenshotsAt1440And390(page, "payment-refund-reason");

  await page.goto("/backoffice/audit-log?action=payment.refund_requested");
  const audit = page.getByTestId("audit-row").first();
  await expect(audit).toContainText(formatMoney(500n, "EUR"));
  await expect(audit).toContainText("Requested by the customer");
});

test("minors: the audit log shows a notification URL change from → to", async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await page.goto("/backoffice/settings/notifications");
  await page.getByLabel("Default notification URL").fill(`${receiverUrl}/v2`);
  // Addresses change with the password again (security review 3, M3).
  await page.locator("#notification-urls-current-password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save URLs" }).click();
  await expect(page.getByText("Notification URLs saved.")).toBeVisible();
  await page.goto("/backoffice/audit-log?action=settings.notification_urls.updated");
  await expect(page.getByTestId("audit-row").first()).toContainText(`Default notification URL: ${receiverUrl}/default → ${receiverUrl}/v2`);
  await screenshotsAt1440And390(page, "audit-log-from-to");
  for (const { width } of WIDE_AND_PHONE) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByText(`${receiverUrl}/default → ${receiverUrl}/v2`).filter({ visible: true }).first()).toBeVisible();
  }
});
