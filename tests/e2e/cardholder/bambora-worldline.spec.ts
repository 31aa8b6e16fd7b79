// Issue 39 in Chromium: the demo owner adds a bambora account on the Worldline platform in the back
// office (as a Danish merchant would, with its PSPID and API key), tests its connection, and a
// cardholder then pays in DKK with `processor: bambora` through our iframes, with 3-D Secure, at the
// built-in Worldline Direct sandbox; the merchant captures part of it. The account is disabled again
// afterwards, so the other specs' DKK payments route as before.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { signIn, useServiceDatabase } from "../../helpers/e2e/backoffice";
import { NEXT_YEAR, callbacks, openDemoShop, pay, typeCard, useNotificationReceiver, waitForCallback } from "../../helpers/e2e/cardholder";

const receiver = useNotificationReceiver();
const demo = () => demoCredentials();
const ACCOUNT_NAME = "Bambora DK (Worldline)";

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await useServiceDatabase();
  const { db } = await import("@/lib/db");
  await db().acquirerAccount.updateMany({ where: { merchantId: demo().merchantId, name: ACCOUNT_NAME }, data: { enabled: false } });
  await db().$disconnect();
});

function merchantApi(request: APIRequestContext) {
  const headers = { Authorization: `Basic ${Buffer.from(`${demo().apiKey}:`).toString("base64")}` };
  return (path: string, data: Record<string, unknown>) => request.post(path, { headers, data });
}

test("the owner adds a bambora account on Worldline Direct, and a DKK payment with 3-D Secure is made and captured there", async ({ page, request }) => {
  test.setTimeout(300_000);
  // The Worldline sandbox's first account (lib/sandboxes/acquirers/bambora/worldline/accounts.ts).
  const { WORLDLINE_SANDBOX_ACCOUNTS } = await import("@/lib/sandboxes/acquirers/bambora/worldline/accounts");
  const pspid = WORLDLINE_SANDBOX_ACCOUNTS[0]!;

  await signIn(page, demo().email, demo().password);
  await page.goto("/backoffice/settings/acquirer-accounts");
  const add = page.getByTestId("add-acquirer-account");
  await add.getByLabel("Acquirer", { exact: true }).selectOption({ label: "Worldline Direct (bambora)" });
  await add.getByLabel("Name", { exact: true }).fill(ACCOUNT_NAME);
  await add.getByLabel("Acquirer merchant id", { exact: true }).fill("81234567");
  await add.getByLabel("Merchant name (as the schemes see it)", { exact: true }).fill("Demo Shop");
  await add.getByLabel("Country (ISO 3166, e.g. DK)", { exact: true }).fill("DK");
  await add.getByLabel("MCC", { exact: true }).fill("5999");
  await add.getByLabel("Statement descriptor", { exact: true }).fill("Demo Shop");
  await add.getByLabel("Currencies", { exact: true }).fill("DKK");
  await add.getByLabel("PSPID", { exact: true }).fill(pspid.merchantId);
  await add.getByLabel("API key id", { exact: true }).fill(pspid.apiKeyId);
  await add.getByLabel("Secret API key", { exact: true }).fill(pspid.secretApiKey);
  await add.getByLabel("Your password", { exact: true }).fill(demo().password);
  await add.getByRole("button", { name: "Add account" }).click();
  await expect(add.getByText(`Account “${ACCOUNT_NAME}” added.`)).toBeVisible();
  await page.reload();
  const account = page.getByTestId("acquirer-account").filter({ hasText: "81234567" });
  // The account's badge names its platform.
  await expect(page.locator("span").filter({ hasText: /^Worldline Direct \(bambora\)$/ }).first()).toBeVisible();
  expect(await page.content()).not.toContain(pspid.secretApiKey);
  await account.getByRole("button", { name: "Test connection" }).click();
  await expect(account.getByTestId("connection-result")).toContainText("Worldline accepted the API key");

  const merchantpaymentid = `wl${Date.now()}`;
  const sessionId = await openDemoShop(page, {
    processor: "bambora",
    currency: "DKK",
    amount: 12_500,
    set3ds: "FORCE_3DS",
    merchantpaymentid,
    notificationurl: receiver.url("worldline-paid"),
  });
  await typeCard(page, { pan: "4111111111111111", month: "12", year: NEXT_YEAR.slice(2), cvc: "123" });
  await pay(page);
  const success = await waitForCallback(page, "jspaymentsuccess");
  const paymentid = success.payload.paymentid as string;
  expect((await callbacks(page)).map((event) => event.name)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
  expect((await receiver.waitFor("worldline-paid")).body).toMatchObject({
    sessionid: sessionId,
    paymentid,
    merchantpaymentid,
    status: "approved",
    processor: "bambora",
    eci: 5,
  });

  const capture = await merchantApi(request)(`/api/${paymentid}/capture`, { amount: 10_000, notificationurl: receiver.url("worldline-capture") });
  expect(capture.status()).toBe(200);
  expect((await receiver.waitFor("worldline-capture")).body).toMatchObject({ paymentid, status: "approved", responsecode: "00" });
});
