// Newcomer review 4: the payment page follows what happens to the payment without a reload (N13), and
// shows a 3-D Secure payment routed on with a second authentication (N4).
import { expect, test } from "@playwright/test";
import { NEXT_YEAR, approvedPayment } from "../../helpers/e2e/cardholder";
import { demoAuthorization, demoCredentials } from "../../helpers/e2e/demo-service";
import { signIn } from "../../helpers/e2e/backoffice";

const value = (page: import("@playwright/test").Page, term: string) => page.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd[1]");

test("N13: a capture and a refund made on the payment page show there when the processor answers, without a reload", async ({ page }) => {
  test.setTimeout(300_000);
  const paymentid = await approvedPayment(page, { amount: 4200, currency: "DKK", set3ds: "SKIP_3DS" }, { pan: "4111111111111111", month: "12", year: NEXT_YEAR, cvc: "123" });

  await signIn(page, demoCredentials().email, demoCredentials().password);
  await page.goto(`/backoffice/payments/${paymentid}`);
  // A mark in the page's window: a reload (or any new document) would drop it.
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));
  await page.getByLabel("Amount to capture (DKK)").fill("30.00");
  await page.getByRole("button", { name: "Capture", exact: true }).click();
  await page.getByRole("button", { name: "Confirm capture" }).click();
  await expect(page.getByText(/Capture requested \(responseid [0-9a-f]{32}\)/)).toBeVisible();
  await expect(page.getByTestId("operation").filter({ hasText: "capture" })).toContainText("approved", { timeout: 30_000 });
  await expect(value(page, "Captured")).toHaveText("30.00 DKK");

  await page.getByLabel("Amount to refund (DKK)").fill("10");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByTestId("operation").filter({ hasText: "refund" })).toContainText("approved", { timeout: 30_000 });
  await expect(value(page, "Refunded")).toHaveText("10.00 DKK");
  await expect(page.getByTestId("waiting-for-acquirer")).toHaveCount(0);
  // Nothing was reloaded: the page fetched itself in place.
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test("N4: a payment declined at finaro under 3-D Secure (the default) is authenticated again for clearhaus; its page lists both authentications", async ({ page }) => {
  test.setTimeout(300_000);
  // Declined by finaro, approved by clearhaus and bambora (docs/integration.md); frictionless 3-D Secure.
  const paymentid = await approvedPayment(
    page,
    { amount: 2500, currency: "DKK", set3ds: "FORCE_3DS", processor: "finaro,clearhaus" },
    { pan: "4000000000001000", month: "12", year: NEXT_YEAR, cvc: "123" },
  );
  expect(paymentid).toMatch(/^[0-9a-f]{32}$/);

  await signIn(page, demoCredentials().email, demoCredentials().password);
  await page.goto(`/backoffice/payments/${paymentid}`);
  const attempts = page.getByTestId("operation").filter({ hasText: "authorize" });
  await expect(attempts).toHaveCount(2);
  await expect(attempts.filter({ hasText: "authenticated again" })).toHaveCount(1);
  const authentications = page.getByTestId("authentication");
  await expect(authentications).toHaveCount(2);
  await expect(authentications.nth(0)).toContainText("for finaro");
  await expect(authentications.nth(1)).toContainText("for clearhaus");
  await expect(authentications.nth(1)).toContainText("again, for the next processor after a decline");
  await expect(page.getByTestId("routing-stopped")).toHaveCount(0);
});

test("N20: a payment's page links the MIT and the payout made on its card, and theirs link back to it", async ({ page }) => {
  test.setTimeout(300_000);
  const parent = await approvedPayment(page, { amount: 5000, currency: "DKK", set3ds: "SKIP_3DS" }, { pan: "4111111111111111", month: "12", year: NEXT_YEAR, cvc: "123" });
  const demo = demoCredentials();
  const headers = { Authorization: demoAuthorization(), "Content-Type": "application/json" };
  const order = `related${Date.now()}`;
  const mit = await page.request.post("/api/mit", {
    headers,
    data: { merchantid: demo.merchantId, paymentid: parent, newmerchantpaymentid: order, amount: 1200, currency: "DKK", paymenttype: "unscheduled" },
  });
  expect(mit.status(), await mit.text()).toBe(200);

  await signIn(page, demo.email, demo.password);
  await page.goto(`/backoffice/payments/${parent}`);
  const related = page.getByTestId("related-payments");
  await expect(related.getByRole("link", { name: order })).toBeVisible({ timeout: 30_000 });
  await expect(related).toContainText("MIT on this payment's card");
  await related.getByRole("link", { name: order }).click();
  await expect(page.getByTestId("related-payments")).toContainText("Parent: its card was used for this payment");
});
