// Settings → Notifications → Webhook endpoints in Chromium (issue 28): a refused address keeps what
// was typed, an added endpoint shows its secret once and is listed with its kinds, an owner rolls
// its secret and disables it. Then the one ordering rule as a merchant meets it (issue 36 N2): the
// endpoint's copy of a capture waits while the payment's completion is refused, the payment page
// says so, and pressing Resend on the completion releases it within seconds. Screenshots at 1440
// and 390 px.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { demoCredentials, E2E } from "../../helpers/e2e/demo-service";
import { NEXT_YEAR, openDemoShop, pay, typeCard, waitForCallback } from "../../helpers/e2e/cardholder";
import { screenshotsAt1440And390, signIn } from "../../helpers/e2e/backoffice";
import { readJsonObject } from "../../helpers/json-body";

interface Received {
  path: string;
  body: Record<string, unknown>;
  at: number;
  /** What the receiver answered. */
  status: number;
}

/** A merchant's receiver on 127.0.0.1 that answers `status` (changeable) and keeps every POST with its arrival time. */
async function receiver(status: number) {
  const received: Received[] = [];
  const state = { status };
  const server = http.createServer(async (req, res) => {
    const body = await readJsonObject(req);
    received.push({ path: req.url ?? "/", body, at: Date.now(), status: state.status });
    res.writeHead(state.status).end(state.status === 200 ? "ok" : "not now");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

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

test("a refused completion holds the endpoint's copy of the capture; Resend on the completion releases it within seconds (one ordering rule)", async ({ page }) => {
  const demo = demoCredentials();
  const run = Date.now().toString(36);
  const shop = await receiver(500);
  const ledger = await receiver(200);
  try {
    await signIn(page, demo.email, demo.password);
    await page.goto("/backoffice/settings/notifications");
    await page.getByLabel("Endpoint URL").fill(`${ledger.base}/ledger-${run}`);
    await page.getByRole("checkbox", { name: "Capture" }).check();
    await page.locator("#add-endpoint-current-password").fill(demo.password);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Endpoint added.")).toBeVisible();

    // A payment whose completion goes to the shop, which refuses it.
    const merchantPaymentId = `order${run}`;
    await openDemoShop(page, { notificationurl: `${shop.base}/completion`, merchantpaymentid: merchantPaymentId, amount: 12500 });
    await typeCard(page, { pan: "4111111111111111", month: "12", year: NEXT_YEAR.slice(2), cvc: "123" });
    await pay(page);
    await waitForCallback(page, "jspaymentsuccess");
    await expect.poll(() => shop.received.find((item) => item.body.merchantpaymentid === merchantPaymentId), { timeout: 30_000 }).toBeTruthy();
    const paymentId = String(shop.received.find((item) => item.body.merchantpaymentid === merchantPaymentId)!.body.paymentid);

    // The merchant captures; the ledger endpoint's copy waits behind the refused completion.
    const captured = await fetch(`${E2E.baseURL}/api/${paymentId}/capture`, {
      method: "POST",
      headers: { authorization: `Basic ${demo.apiKey}`, "content-type": "application/json" },
      body: "{}",
    });
    const { responseid: captureId } = (await captured.json()) as { responseid: string };
    expect(captureId).toEqual(expect.any(String));
    await page.goto(`/backoffice/payments/${paymentId}`);
    const captureRow = page.getByTestId("notification").filter({ hasText: `ledger-${run}` });
    await expect(async () => {
      await page.reload();
      await expect(captureRow).toContainText("waiting for an earlier notification of this payment", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    expect(ledger.received).toEqual([]);
    await screenshotsAt1440And390(page, "notification-waiting-behind-completion");

    // The shop is fixed; the merchant presses Resend on the completion.
    shop.state.status = 200;
    const completionRow = page.getByTestId("notification").filter({ hasText: "completion" });
    await completionRow.getByRole("button", { name: "Resend" }).click();
    await expect(completionRow.getByText(/Delivered again with webhook-id/)).toBeVisible();
    // The first completion the shop acknowledged (a scheduled retry already on its way may arrive after it).
    const acknowledged = shop.received.find((item) => item.path === "/completion" && item.status === 200)!.at;
    await expect.poll(() => ledger.received.find((item) => item.body.responseid === captureId), { timeout: 10_000 }).toBeTruthy();
    const copy = ledger.received.find((item) => item.body.responseid === captureId)!;
    expect(copy.at).toBeGreaterThanOrEqual(acknowledged);
    expect(copy.at - acknowledged).toBeLessThan(10_000);
    await page.reload();
    await expect(captureRow).toContainText("delivered");
  } finally {
    await shop.close();
    await ledger.close();
  }
});
