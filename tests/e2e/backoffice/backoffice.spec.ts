// The back office in Chromium, as a merchant uses it: sign-in (with and without the second factor),
// notification URLs and the test notification, API keys used against the real API, hosted-field
// styling seen in the preview and in the real fields, payments browsed, filtered and captured /
// refunded, the viewer role, and another merchant's data out of reach.
import { expect, test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { NEXT_YEAR, field, openDemoShop, pay, startNotificationReceiver, typeCard, waitForCallback, type NotificationReceiver } from "../../helpers/e2e/cardholder";
import { addMember, screenshots, signIn, signOut, useServiceDatabase } from "../../helpers/e2e/backoffice";

test.describe.configure({ mode: "serial" });

let receiver: NotificationReceiver;
test.beforeAll(async () => {
  receiver = await startNotificationReceiver();
});
test.afterAll(async () => receiver?.close());

const demo = () => demoCredentials();
const VISA = { pan: "4111111111111111", month: "12", year: NEXT_YEAR.slice(2), cvc: "123" };

/** The owner's revoke server-action request, replayed by a viewer in a later test. */
let recordedRevoke: { url: string; headers: Record<string, string>; body: Buffer } | undefined;

async function callInitDynamic(page: Page, apiKey: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await page.request.post("/api/initdynamic", {
    headers: { Authorization: `Basic ${apiKey}` },
    data: { merchantid: demo().merchantId, amount: 100, currency: "DKK" },
  });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

test("sign-in: a wrong password is refused with a clear message, the right one opens the overview", async ({ page }) => {
  await page.goto("/backoffice/payments");
  await expect(page).toHaveURL(/\/backoffice\/sign-in/);
  await screenshots(page, "sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await page.getByLabel("Email").fill(demo().email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The email address or password is not correct." })).toBeVisible();
  await signIn(page, demo().email, demo().password);
  await expect(page.getByText(demo().email).first()).toBeVisible();
  await signOut(page);
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/sign-in/);
});

test("notification URLs: validation, saving, and a test notification showing the receiver's answer", async ({ page }) => {
  await signIn(page, demo().email, demo().password);
  await page.getByRole("link", { name: "Notification URLs" }).first().click();
  await page.getByLabel("Default notification URL").fill("not a url");
  await page.getByRole("button", { name: "Save URLs" }).click();
  await expect(page.getByText("Enter a full address such as https://shop.example/notifications")).toBeVisible();
  await page.getByLabel("Default notification URL").fill(receiver.url("default"));
  await page.getByLabel("Payment completion URL").fill(receiver.url("completion"));
  // Addresses change with the password again (review 3, M3).
  await page.locator("#notification-urls-current-password").fill(demo().password);
  await page.getByRole("button", { name: "Save URLs" }).click();
  await expect(page.getByText("Notification URLs saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Default notification URL")).toHaveValue(receiver.url("default"));
  await page.getByRole("button", { name: "Send test notification" }).click();
  const result = page.getByTestId("test-notification-result");
  await expect(result).toContainText("The receiver acknowledged the test notification.");
  await expect(result).toContainText("HTTP 200");
  await expect(result.locator("pre").first()).toHaveText("ok");
  const received = await receiver.waitFor("default", (body) => body.type === "test");
  expect(received.headers["webhook-signature"]).toMatch(/^v1,/);
  await screenshots(page, "notification-urls");
});

test("Settings → API-key: create a key, call the API with it, roll it, revoke it", async ({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
  await signIn(page, demo().email, demo().password);
  await page.getByRole("link", { name: "API-key" }).first().click();
  await expect(page.getByRole("heading", { name: "API-key" })).toBeVisible();
  await expect(page.getByTestId("merchant-id")).toHaveText(demo().merchantId);

  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Give the key a name")).toBeVisible();
  await page.getByLabel("Key name").fill("E2E shop");
  // Step-up: creating a key asks for the password again.
  await page.locator("#create-key-current-password").fill(demo().password);
  await page.getByRole("button", { name: "Create key" }).click();
  const firstKey = (await page.getByTestId("new-api-key").textContent())!;
  expect(firstKey).toMatch(/^cps_test_[0-9A-Za-z]{40}$/);
  const row = page.getByTestId("api-key-row").filter({ hasText: firstKey.slice(0, 12) });
  await expect(row).toContainText("E2E shop");
  await expect(row).toContainText("Last used never");
  // Only the prefix is ever shown again.
  await page.reload();
  await expect(page.getByText(firstKey)).toHaveCount(0);
  expect((await callInitDynamic(page, firstKey)).status).toBe(200);
  await page.reload();
  await expect(page.getByTestId("api-key-row").filter({ hasText: firstKey.slice(0, 12) })).not.toContainText("Last used never");

  // Roll with a one-hour grace period: both keys work.
  await page.getByRole("button", { name: "Roll key E2E shop" }).first().click();
  await page.getByLabel("Old key stops working").selectOption({ label: "In 1 hour" });
  await page.locator('[id^="roll-"][id$="-current-password"]').fill(demo().password);
  await page.getByRole("button", { name: "Roll key", exact: true }).click();
  await expect(page.getByText("The old key keeps working until")).toBeVisible();
  const rolledKey = (await page.getByTestId("new-api-key").last().textContent())!;
  expect(rolledKey).not.toBe(firstKey);
  expect((await callInitDynamic(page, rolledKey)).status).toBe(200);
  expect((await callInitDynamic(page, firstKey)).status).toBe(200);
  await page.reload();
  await expect(page.getByTestId("api-key-row").filter({ hasText: firstKey.slice(0, 12) })).toContainText("expiring");
  await screenshots(page, "api-key");

  // Revoke the new key: the API refuses it (within the API's 2-second key cache). The server-action
  // request is kept, to replay it as a viewer below.
  const revokeRequest = page.waitForRequest((request) => request.method() === "POST" && Boolean(request.headers()["next-action"]));
  await page.getByTestId("api-key-row").filter({ hasText: rolledKey.slice(0, 12) }).getByRole("button", { name: "Revoke key E2E shop" }).click();
  const captured = await revokeRequest;
  recordedRevoke = { url: captured.url(), headers: await captured.allHeaders(), body: captured.postDataBuffer()! };
  await expect(page.getByTestId("api-key-row").filter({ hasText: rolledKey.slice(0, 12) })).toContainText("revoked");
  await expect.poll(async () => (await callInitDynamic(page, rolledKey)).body.error, { timeout: 5_000 }).toBe("INVALID_API_KEY");
  expect((await callInitDynamic(page, rolledKey)).status).toBe(400);

  await page.getByRole("link", { name: "Audit log" }).first().click();
  await expect(page.getByTestId("audit-row").filter({ hasText: "Revoked API key" })).toHaveCount(1);
  await expect(page.getByTestId("audit-row").filter({ hasText: "Rolled API key" })).toHaveCount(1);
  await expect(page.getByTestId("audit-row").filter({ hasText: "Created API key" }).first()).toContainText(demo().email);
  await screenshots(page, "audit-log");
});

test("hosted integration: styling shows in the live preview and in the real hosted fields", async ({ page }) => {
  await signIn(page, demo().email, demo().password);
  await page.goto("/backoffice/settings/hosted");
  await page.getByRole("link", { name: "New integration" }).click();
  await page.getByLabel("Name").fill("Orange checkout");
  await page.getByLabel("hostedid").fill("orange");
  const preview = page.frameLocator("[data-testid=preview-pan]").locator("input");
  await expect(preview).toBeVisible();
  await page.getByLabel("Text colour", { exact: true }).fill("#c2410c");
  await page.getByLabel("Background", { exact: true }).fill("#fff7ed");
  await page.getByLabel("Card number placeholder").fill("Your card");
  await expect(preview).toHaveCSS("color", "rgb(194, 65, 12)");
  await expect(preview).toHaveAttribute("placeholder", "Your card");
  // An unsafe value is refused next to its field and never reaches the preview.
  await page.getByLabel("Font size").fill("16px;}body{display:none");
  await expect(page.getByText("must be a CSS length such as 16px, 1rem or 0")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save integration" })).toBeDisabled();
  await page.getByLabel("Font size").fill("18px");
  await expect(preview).toHaveCSS("font-size", "18px");
  await screenshots(page, "hosted-integration");
  await page.locator("#hosted-integration-current-password").fill(demo().password);
  await page.getByRole("button", { name: "Save integration" }).click();
  await expect(page).toHaveURL(/\/backoffice\/settings\/hosted\/[0-9a-f]{32}$/);
  await expect(page.getByLabel("Text colour", { exact: true })).toHaveValue("#c2410c");

  // The cardholder's fields of a session with this hostedid look the same.
  await openDemoShop(page, { hostedid: "orange" });
  const realField = field(page, "pan").locator("input");
  await expect(realField).toHaveCSS("color", "rgb(194, 65, 12)");
  await expect(realField).toHaveCSS("font-size", "18px");
  await expect(realField).toHaveAttribute("placeholder", "Your card");
});

async function payOnDemoShop(page: Page, params: Record<string, string | number>): Promise<string> {
  await openDemoShop(page, { notificationurl: receiver.url("completion"), ...params });
  await typeCard(page, VISA);
  await pay(page);
  const success = await waitForCallback(page, "jspaymentsuccess");
  return success.payload.paymentid as string;
}

let capturedPaymentId = "";

test("payments: browse, search and filter, then capture and refund from the payment page", async ({ page }) => {
  const first = await payOnDemoShop(page, { merchantpaymentid: "boorder1", amount: 4200, reference: "bo-ref-1" });
  const second = await payOnDemoShop(page, { merchantpaymentid: "boorder2", amount: 990, reference: "bo-ref-2" });
  capturedPaymentId = first;

  await signIn(page, demo().email, demo().password);
  await page.getByRole("link", { name: "Payments" }).first().click();
  const rows = page.getByTestId("payment-row");
  await expect(rows.filter({ hasText: first })).toHaveCount(1);
  await expect(rows.filter({ hasText: second })).toHaveCount(1);
  await screenshots(page, "payments");

  await page.getByRole("textbox", { name: "Search" }).fill("boorder2");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(second);
  await page.getByRole("textbox", { name: "Search" }).fill("1111");
  await page.getByLabel("Min amount").fill("40");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(first);
  await page.getByRole("textbox", { name: "Search" }).fill("");
  await page.getByLabel("Min amount").fill("");
  await page.getByLabel("Status").selectOption("declined");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No payments match these filters.")).toBeVisible();
  await page.getByLabel("Min amount").fill("12,50");
  await page.getByLabel("Status").selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Enter an amount such as 12.50")).toBeVisible();

  // CSV of a filtered list.
  const csv = await page.request.get(`/backoffice/payments/export?q=boorder1`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${first},boorder1,`);
  expect(lines[1]).toContain(",4200,DKK,");

  await page.goto(`/backoffice/payments/${first}`);
  await expect(page.getByTestId("payment-id")).toHaveText(first);
  await expect(page.getByTestId("card-summary")).toHaveText("visa •••• 1111");
  await expect(page.getByTestId("operation").filter({ hasText: "authorize" })).toContainText("approved");
  await expect(page.getByTestId("notification").filter({ hasText: "completion" })).toContainText("HTTP 200");

  await page.getByLabel("Amount to capture (DKK)").fill("30.00");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  // A confirm step names the amount before anything is sent.
  await expect(page.getByRole("group", { name: "Confirm capture" })).toContainText("Capture 30.00 DKK?");
  await page.getByRole("button", { name: "Confirm capture" }).click();
  await expect(page.getByText(/Capture requested \(responseid [0-9a-f]{32}\)/)).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("operation").filter({ hasText: "capture" })).toContainText("approved", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator("dt", { hasText: /^Captured$/ }).locator("..")).toContainText("30.00 DKK");

  await page.getByLabel("Amount to refund (DKK)").fill("10");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByText(/Refund requested/)).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("operation").filter({ hasText: "refund" })).toContainText("approved", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator("dt", { hasText: /^Refunded$/ }).locator("..")).toContainText("10.00 DKK");
  // Captured 30 and refunded 10 of 42: partially refunded, not refunded.
  await expect(page.getByTestId("payment-state")).toHaveText("Partially refunded");
  // The capture's and the refund's notifications went to the default URL.
  await receiver.waitFor("default", (body) => body.paymentid === first && body.status === "approved");
  await screenshots(page, "payment");

  await page.goto("/backoffice");
  await expect(page.getByText("Payments").first()).toBeVisible();
  await screenshots(page, "overview");
});

test("a viewer sees keys and payments but can change nothing", async ({ page }) => {
  await signIn(page, demo().email, demo().password);
  await addMember(page, { name: "Vera Viewer", email: "viewer@example.com", password: "viewer-password-1", role: "VIEWER" });
  await screenshots(page, "team");
  await signOut(page);

  await signIn(page, "viewer@example.com", "viewer-password-1");
  await page.goto("/backoffice/settings/api-key");
  await expect(page.getByText("Your role can see keys but not change them.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Roll key|^Revoke key/ })).toHaveCount(0);
  await expect(page.getByText("Only owners can reveal or roll it.")).toBeVisible();
  expect(await page.content()).not.toContain("whsec_");
  await expect(page.getByTestId("api-key-row").first()).toBeVisible();

  // The revoke server action itself, called with the viewer's session on the demo's default key: refused.
  await useServiceDatabase();
  const { db } = await import("@/lib/db");
  const defaultKey = await db().apiKey.findFirstOrThrow({ where: { merchantId: demo().merchantId, name: "Test key" }, select: { id: true } });
  expect(recordedRevoke).toBeDefined();
  const revokedId = /[0-9a-f]{32}/.exec(recordedRevoke!.body.toString("latin1"))![0];
  const body = Buffer.from(recordedRevoke!.body.toString("latin1").replaceAll(revokedId, defaultKey.id), "latin1");
  const headers = Object.fromEntries(Object.entries(recordedRevoke!.headers).filter(([name]) => !["cookie", "content-length", "host"].includes(name)));
  const replay = await page.request.post(recordedRevoke!.url, { headers, data: body });
  expect(await replay.text()).toContain("Your role does not allow this");
  expect((await db().apiKey.findUniqueOrThrow({ where: { id: defaultKey.id }, select: { revokedAt: true } })).revokedAt).toBeNull();
  expect((await callInitDynamic(page, demo().apiKey)).status).toBe(200);
  await db().$disconnect();

  await page.goto("/backoffice/settings/notifications");
  await expect(page.getByLabel("Default notification URL")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Send test notification" })).toHaveCount(0);
  await page.goto(`/backoffice/payments/${capturedPaymentId}`);
  await expect(page.getByRole("button", { name: "Capture", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Resend" })).toHaveCount(0);
  const newIntegration = await page.goto("/backoffice/settings/hosted/new");
  expect(newIntegration?.status()).toBe(404);
});

test("second factor: turn it on, then sign-in asks for the current code", async ({ page }) => {
  await signIn(page, demo().email, demo().password);
  await addMember(page, { name: "Tom Totp", email: "totp@example.com", password: "totp-password-1", role: "DEVELOPER" });
  // Owners change roles on the same page (confirmed with their password): the viewer becomes a developer and back.
  const viewerRole = page.getByLabel("Role of viewer@example.com", { exact: true });
  const viewerConfirm = page.locator(`#${await viewerRole.getAttribute("id")}-current-password`);
  await viewerRole.selectOption("DEVELOPER");
  await viewerConfirm.fill(demo().password);
  await page.getByRole("button", { name: "Save role of viewer@example.com" }).click();
  await expect(page.getByText("viewer@example.com is now developer.")).toBeVisible();
  await viewerRole.selectOption("VIEWER");
  await viewerConfirm.fill(demo().password);
  await page.getByRole("button", { name: "Save role of viewer@example.com" }).click();
  await expect(page.getByText("viewer@example.com is now viewer.")).toBeVisible();
  await signOut(page);

  await signIn(page, "totp@example.com", "totp-password-1");
  await page.getByRole("link", { name: "Your account" }).first().click();
  await page.locator("#totp-start-current-password").fill("totp-password-1");
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code of the authenticator setup" }).locator("svg")).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await page.getByLabel("Code from your app").fill("000000");
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.getByText("That code is not correct or has expired")).toBeVisible();
  await page.getByLabel("Code from your app").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  // The recovery codes first (tests/e2e/backoffice/recovery-codes.spec.ts), then the factor as on,
  // with the form to turn it off again.
  await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await page.getByRole("button", { name: "I have stored them" }).click();
  await expect(page.getByLabel("Current code from your app")).toBeVisible();
  await expect(page.getByText("On", { exact: true })).toBeVisible();
  await screenshots(page, "account");
  await signOut(page);

  await page.getByLabel("Email").fill("totp@example.com");
  await page.getByLabel("Password").fill("totp-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await expect(page).toHaveURL(/\/backoffice\/sign-in/);
  await page.getByLabel("Authentication code").fill("123456");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText("That code is not correct or has expired. Enter the current code.")).toBeVisible();
  // A code is accepted once (RFC 6238 §5.2): the one that confirmed enrolment may be of this same
  // 30-second step, so sign in with the next step's code, which the 30-second tolerance accepts.
  await page.getByLabel("Authentication code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByText("totp@example.com").first()).toBeVisible();
});

test("another merchant's payment and hosted integration cannot be reached through any page", async ({ page }) => {
  await useServiceDatabase();
  const { createTestMerchant, createTestPayment } = await import("@/tests/helpers/merchant-factories");
  const { db } = await import("@/lib/db");
  const other = await createTestMerchant({ name: "Other Shop" });
  const { paymentId } = await createTestPayment({ merchantId: other.merchantId, merchantPaymentId: "otherorder", reference: "other-ref", status: "AUTHORIZED" });
  const integration = await db().hostedIntegration.create({ data: { id: "otherintegration0000000000000001", merchantId: other.merchantId, hostedId: "other", name: "Other" }, select: { id: true } });
  await db().$disconnect();

  await signIn(page, demo().email, demo().password);
  expect((await page.goto(`/backoffice/payments/${paymentId}`))?.status()).toBe(404);
  expect((await page.goto(`/backoffice/settings/hosted/${integration.id}`))?.status()).toBe(404);
  await page.goto(`/backoffice/payments?q=${paymentId}`);
  await expect(page.getByText("No payments match these filters.")).toBeVisible();
  await page.goto(`/backoffice/payments?q=otherorder`);
  await expect(page.getByText("No payments match these filters.")).toBeVisible();
  const csv = await (await page.request.get("/backoffice/payments/export")).text();
  expect(csv).not.toContain(paymentId);
  expect(csv).toContain(capturedPaymentId);
  // Signed out, nothing is served.
  await signOut(page);
  expect((await page.request.get("/backoffice/payments/export")).status()).toBe(401);
  expect((await page.request.get("/backoffice/settings/hosted/preview?field=pan")).status()).toBe(401);
});
