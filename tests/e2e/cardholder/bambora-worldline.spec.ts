// Issue 39 in Chromium: the demo owner adds a bambora account on the Worldline platform in the back
// office (as a Danish merchant would, with its PSPID and API key), tests its connection, and a
// cardholder then pays in DKK with `processor: bambora` through our iframes, with 3-D Secure, at the
// built-in Worldline Direct sandbox; the merchant captures part of it. The account is disabled again
// afterwards, so the other specs' DKK payments route as before.
import { expect, test } from "@playwright/test";
import { demoCredentials, demoMerchantApi } from "../../helpers/e2e/demo-service";
import { signIn, submitAcquirerAccount, useServiceDatabase } from "../../helpers/e2e/backoffice";
import { callbackNames, openDemoShop, payWithCard, testCard, useNotificationReceiver, waitForCallback } from "../../helpers/e2e/cardholder";

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

test("the owner adds a bambora account on Worldline Direct, and a DKK payment with 3-D Secure is made and captured there", async ({ page, request }) => {
  test.setTimeout(300_000);
  // The Worldline sandbox's first account (lib/sandboxes/acquirers/bambora/worldline/accounts.ts).
  const { WORLDLINE_SANDBOX_ACCOUNTS } = await import("@/lib/sandboxes/acquirers/bambora/worldline/accounts");
  const pspid = WORLDLINE_SANDBOX_ACCOUNTS[0]!;

  await signIn(page, demo().email, demo().password);
  await page.goto("/backoffice/settings/acquirer-accounts");
  const add = page.getByTestId("add-acquirer-account");
  await submitAcquirerAccount(add, {
    acquirer: { label: "Worldline Direct (bambora)" },
    name: ACCOUNT_NAME,
    acquirerMerchantId: "81234567",
    merchantName: "Demo Shop",
    country: "DK",
    mcc: "5999",
    descriptor: "Demo Shop",
    currencies: "DKK",
    credentials: { PSPID: pspid.merchantId, "API key id": pspid.apiKeyId, "Secret API key": pspid.secretApiKey },
  });
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
  await payWithCard(page, testCard("4111111111111111"));
  const success = await waitForCallback(page, "jspaymentsuccess");
  const paymentid = success.payload.paymentid as string;
  expect(await callbackNames(page)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
  expect((await receiver.waitFor("worldline-paid")).body).toMatchObject({
    sessionid: sessionId,
    paymentid,
    merchantpaymentid,
    status: "approved",
    processor: "bambora",
    eci: 5,
  });

  const capture = await demoMerchantApi(request)(`/api/${paymentid}/capture`, { amount: 10_000, notificationurl: receiver.url("worldline-capture") });
  expect(capture.status()).toBe(200);
  expect((await receiver.waitFor("worldline-capture")).body).toMatchObject({ paymentid, status: "approved", responsecode: "00" });
});
