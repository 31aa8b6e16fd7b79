import { expect, test } from "@playwright/test";
import { demoCredentials } from "../helpers/e2e/demo-service";

test("the home page links to the back office and to health", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Card Payment Service" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back office" })).toHaveAttribute("href", "/backoffice");
  await expect(page.getByRole("link", { name: "Service health" })).toHaveAttribute("href", "/api/health");
});

test("the demo merchant seeded at start exists in the data folder", async () => {
  const demo = demoCredentials();
  expect(demo.merchantId).toMatch(/^\d{12}$/);
  expect(demo.apiKey).toMatch(/^cps_test_[0-9A-Za-z]{40}$/);
});
