// Settings → Acquirer accounts in Chromium: the demo owner sees the sandbox accounts local mode gave
// the demo merchant (fingerprints, never credentials), tests a connection, is refused a bad MCC and
// descriptor with the fields named, changes an account with the step-up; a developer finds neither
// the menu entry nor the page. Screenshots at 1440, 1280 and 390 px.
import { expect, test, type Page } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { keepScreenshot, screenshots, signIn, signOut, submitAcquirerAccount, useServiceDatabase } from "../../helpers/e2e/backoffice";

/** The suite's screenshots (desktop, phone, no sideways scroll at 390 px), plus one at 1440 px wide. */
async function screenshotsAt1440And390(page: Page, name: string): Promise<void> {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 1440, height: 900 });
  await keepScreenshot(page, `test-results/backoffice/${name}-1440.png`);
  await page.setViewportSize(original);
  await screenshots(page, name);
}

test.describe.configure({ mode: "serial" });

const demo = () => demoCredentials();

test("the owner sees the merchant's accounts, tests one, is refused bad input, and changes one with the step-up", async ({ page }) => {
  await signIn(page, demo().email, demo().password);
  await page.getByRole("link", { name: "Acquirer accounts" }).first().click();
  await expect(page.getByRole("heading", { name: "Acquirer accounts" })).toBeVisible();
  const accounts = page.getByTestId("acquirer-account");
  await expect(accounts).toHaveCount(3);
  await expect(page.getByTestId("credentials-fingerprint").first()).toHaveText(/^[0-9a-f]{16}$/);
  const html = await page.content();
  for (const secret of ["finaro-sandbox-signature-key", "2b0c4b3e-5c1f-4a8e-9d2a-6f1e0c7b9a01", "BamboraSandboxSecret1"])
    expect(html).not.toContain(secret);

  const clearhaus = accounts.filter({ hasText: "000000000000001" });
  await clearhaus.getByRole("button", { name: "Test connection" }).click();
  await expect(clearhaus.getByTestId("connection-result")).toContainText("GET /account: HTTP 200");
  await screenshotsAt1440And390(page, "acquirer-accounts");

  const add = page.getByTestId("add-acquirer-account");
  // Two bad fields: an MCC that is no four-digit code, and a descriptor of digits only.
  await submitAcquirerAccount(add, {
    acquirer: "clearhaus",
    name: "Clearhaus EUR",
    acquirerMerchantId: "000000000000002",
    merchantName: "Demo Shop",
    country: "DK",
    mcc: "59",
    descriptor: "12345",
    currencies: "EUR",
    credentials: { "API key": "7d5e1f2a-3b4c-4d6e-8f90-a1b2c3d4e502" },
  });
  await expect(add.getByText("must be the four digits of an ISO 18245 merchant category code")).toBeVisible();
  await expect(add.getByText("must not be all digits (Clearhaus)")).toBeVisible();
  await screenshotsAt1440And390(page, "acquirer-accounts-errors");
  await page.reload();
  await expect(page.getByTestId("acquirer-account")).toHaveCount(3);

  const bambora = page.getByTestId("acquirer-account").filter({ hasText: "300000001" });
  await bambora.getByRole("button", { name: /^Change account/ }).click();
  await bambora.getByLabel("Statement descriptor", { exact: true }).fill("Demo Shop DK");
  await bambora.getByLabel("Your password", { exact: true }).fill(demo().password);
  await bambora.getByRole("button", { name: "Save" }).click();
  await expect(bambora.getByText(/saved\.$/)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("acquirer-account").filter({ hasText: "300000001" })).toContainText("Demo Shop DK");
  await signOut(page);
});

test("a developer finds neither the menu entry nor the page", async ({ page }) => {
  await useServiceDatabase();
  const { createUser } = await import("@/lib/users/create-user");
  const { db } = await import("@/lib/db");
  await createUser({
    merchantId: demo().merchantId,
    email: "accounts-developer@example.com",
    name: "Dev",
    password: "developer-password-1",
    role: "DEVELOPER",
  });
  await db().$disconnect();
  await signIn(page, "accounts-developer@example.com", "developer-password-1");
  await expect(page.getByRole("link", { name: "Acquirer accounts" })).toHaveCount(0);
  const response = await page.goto("/backoffice/settings/acquirer-accounts");
  expect(response?.status()).toBe(404);
  expect(await page.content()).not.toContain("000000000000001");
});
