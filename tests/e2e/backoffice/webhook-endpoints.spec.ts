// Settings → Notifications → Webhook endpoints in Chromium (issue 28): a refused address keeps what
// was typed, an added endpoint shows its secret once and is listed with its kinds, an owner rolls
// its secret and disables it. Screenshots at 1440 and 390 px.
import { expect, test } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { screenshotsAt1440And390, signIn } from "../../helpers/e2e/backoffice";

test("webhook endpoints: add with chosen kinds (secret shown once), roll the secret, disable", async ({ page }) => {
  const demo = demoCredentials();
  await signIn(page, demo.email, demo.password);
  await page.goto("/backoffice/settings/notifications");
  const url = `http://127.0.0.1:9/ledger-${Date.now()}`;
  await page.getByLabel("Endpoint URL").fill("not a url");
  await page.locator("#add-endpoint-current-password").fill(demo.password);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("enter a full address such as https://shop.example/webhooks")).toBeVisible();
  await expect(page.getByLabel("Endpoint URL")).toHaveValue("not a url");

  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByLabel("Description (optional)").fill("ledger");
  await page.getByRole("checkbox", { name: "Capture" }).check();
  await page.getByRole("checkbox", { name: "Refund" }).check();
  await page.locator("#add-endpoint-current-password").fill(demo.password);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("Endpoint added.")).toBeVisible();
  await expect(page.getByTestId("new-endpoint-secret")).toContainText("whsec_");
  const row = page.getByTestId("webhook-endpoint-row").filter({ hasText: url });
  await expect(row).toContainText("Capture, Refund · ledger");
  await expect(row).toContainText("Enabled");
  await screenshotsAt1440And390(page, "webhook-endpoints");

  await row.getByPlaceholder("Your password").fill(demo.password);
  await row.getByRole("button", { name: "Roll secret" }).click();
  await expect(row.getByText("New secret made")).toBeVisible();
  await expect(row.locator("[data-testid^=rolled-secret-]")).toContainText("whsec_");

  await row.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByTestId("webhook-endpoint-row").filter({ hasText: url })).toContainText("Disabled");
});
