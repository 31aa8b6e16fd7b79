// Test mode and live mode in the back office (issue 27), as a merchant uses it: a local start shows
// test mode with its banner; the switch in the side menu shows live data (no banner), and back. A
// payment of each mode under the same order number: each mode's list, search and export show only
// its own, and switching on a payment's page lands on the list (the other mode has no such payment).
import { expect, test } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { screenshots, signIn, useServiceDatabase } from "../../helpers/e2e/backoffice";

const run = Date.now().toString(36);
const order = `mode${run}`;

test("the mode switch, the test-mode banner, and each mode's payments, search and export", async ({ page }) => {
  const demo = demoCredentials();
  await useServiceDatabase();
  const { createTestPayment } = await import("@/tests/helpers/merchant-factories");
  const { db } = await import("@/lib/db");
  const test = await createTestPayment({ merchantId: demo.merchantId, mode: "test", merchantPaymentId: order, reference: `ref-${run}` });
  const live = await createTestPayment({ merchantId: demo.merchantId, mode: "live", merchantPaymentId: order, reference: `ref-${run}` });
  await db().$disconnect();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, demo.email, demo.password);
  // A local start shows test mode, marked by the banner.
  await expect(page.getByTestId("test-mode-banner")).toContainText("Test mode");
  await page.goto(`/backoffice/payments?q=${order}`);
  await expect(page.getByText(test.paymentId)).toBeVisible();
  await expect(page.getByText(live.paymentId)).toHaveCount(0);
  const testExport = await page.request.get(`/backoffice/payments/export?q=${order}`);
  expect(testExport.headers()["content-disposition"]).toMatch(/payments-test-/);
  const testCsv = await testExport.text();
  expect(testCsv).toContain(test.paymentId);
  expect(testCsv).not.toContain(live.paymentId);
  await screenshots(page, "mode-test-payments");

  // On the test payment's page, switch: the live view has no such payment, so the list is shown.
  await page.goto(`/backoffice/payments/${test.paymentId}`);
  await page.getByTestId("mode-switch").first().click();
  await expect(page).toHaveURL(/\/backoffice\/payments$/);
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);
  await expect(page.getByText("Viewing live data").first()).toBeVisible();
  await page.goto(`/backoffice/payments?q=${order}`);
  await expect(page.getByText(live.paymentId)).toBeVisible();
  await expect(page.getByText(test.paymentId)).toHaveCount(0);
  expect((await page.goto(`/backoffice/payments/${test.paymentId}`))?.status()).toBe(404);
  const liveExport = await page.request.get(`/backoffice/payments/export?q=${order}`);
  expect(liveExport.headers()["content-disposition"]).toMatch(/payments-live-/);
  const liveCsv = await liveExport.text();
  expect(liveCsv).toContain(live.paymentId);
  expect(liveCsv).not.toContain(test.paymentId);
  // Live mode's keys: none of the demo's test key.
  await page.goto("/backoffice/settings/api-key");
  await expect(page.getByRole("heading", { name: "Live keys" })).toBeVisible();
  await expect(page.getByTestId("api-key-row")).toHaveCount(0);
  await screenshots(page, "mode-live-keys");

  // And back to test mode, on the same page.
  await page.getByTestId("mode-switch").first().click();
  await expect(page).toHaveURL(/\/backoffice\/settings\/api-key$/);
  await expect(page.getByTestId("test-mode-banner")).toBeVisible();
  await expect(page.getByTestId("api-key-row").first()).toBeVisible();
});
