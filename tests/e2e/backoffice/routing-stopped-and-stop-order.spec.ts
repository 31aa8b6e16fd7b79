// Routing by decline class as the merchant sees it in the back office (decisions 0190, 0191): a
// declined-hard answer ends the routing and the payment's page says why; a cardholder's stop order on
// an MIT stops MITs on the stored card, the card says so, and the next /api/mit on it is refused.
import { expect, test } from "@playwright/test";
import { NEXT_YEAR, approvedPayment, openDemoShop, payWithCard, waitForCallback } from "../../helpers/e2e/cardholder";
import { demoAuthorization, demoCredentials } from "../../helpers/e2e/demo-service";
import { signIn } from "../../helpers/e2e/backoffice";

test("a hard decline (54, expired) ends the routing: the payment's page says which processors were not tried, and why", async ({ page }) => {
  test.setTimeout(300_000);
  await openDemoShop(page, { amount: 2600, currency: "DKK", set3ds: "SKIP_3DS" });
  await payWithCard(page, { pan: "4000000000000069", month: "12", year: NEXT_YEAR, cvc: "123" });
  const paymentid = String((await waitForCallback(page, "jspaymentfailed")).payload.paymentid ?? "");
  expect(paymentid).toMatch(/^[0-9a-f]{32}$/);

  await signIn(page, demoCredentials().email, demoCredentials().password);
  await page.goto(`/backoffice/payments/${paymentid}`);
  // One attempt only: the card schemes forbid presenting an expired card again elsewhere.
  await expect(page.getByTestId("operation").filter({ hasText: "authorize" })).toHaveCount(1);
  const stopped = page.getByTestId("routing-stopped");
  await expect(stopped).toContainText(/^Routing stopped: \w+ declined for good \(declined-hard, 54/);
  await expect(stopped).toContainText("the card schemes forbid re-attempts of this decline");
  await expect(stopped).toContainText(/so [\w, ]+ (was|were) not tried/);
});

test("a stop order on an MIT: the stored card shows MITs stopped, and the next MIT on it is refused at once", async ({ page }) => {
  test.setTimeout(300_000);
  const parent = await approvedPayment(page, { amount: 9900, currency: "DKK", set3ds: "SKIP_3DS" }, { pan: "4000000000000291", month: "12", year: NEXT_YEAR, cvc: "123" });
  const demo = demoCredentials();
  const headers = { Authorization: demoAuthorization(), "Content-Type": "application/json" };
  const mit = () =>
    page.request.post("/api/mit", {
      headers,
      data: { merchantid: demo.merchantId, paymentid: parent, amount: 9900, currency: "DKK", paymenttype: "scheduled" },
    });
  const first = await mit();
  expect(first.status(), await first.text()).toBe(200);

  await signIn(page, demo.email, demo.password);
  await page.goto(`/backoffice/payments/${parent}`);
  // The MIT is authorized in the background: the page shows the stop once it is recorded.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("card-mit-stopped")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("card-mit-stopped")).toContainText(/Stopped by the cardholder's stop order: \w+ answered R1/);

  const second = await mit();
  expect(second.status()).toBe(400);
  const refusal = (await second.json()) as { error: string; errordescription: string };
  expect(refusal.error).toBe("INVALID_PARAMETER");
  expect(refusal.errordescription).toMatch(/^paymentid: the cardholder stopped merchant-initiated payments on this card: \w+ answered R1/);
});
