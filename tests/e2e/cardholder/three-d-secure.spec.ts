// 3-D Secure in Chromium: frictionless, and the challenge shown in the merchant's challenge element
// (our challenge page with the issuer's ACS inside) completed, failed and cancelled.
import { expect, test } from "@playwright/test";
import {
  NEXT_YEAR,
  acsFrame,
  callbacks,
  openDemoShop,
  pay,
  useNotificationReceiver,
  typeCard,
  waitForCallback,
} from "../../helpers/e2e/cardholder";

const receiver = useNotificationReceiver();

const card = (pan: string) => ({ pan, month: "11", year: NEXT_YEAR.slice(2), cvc: "737" });
const CHALLENGE_REQUIRED = "4000000000003006";
const CHALLENGE = "4000000000003220";

test("frictionless: approved without a challenge, the ECI reaches the notification", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS", notificationurl: receiver.url("frictionless") });
  await typeCard(page, card("4111111111111111"));
  await pay(page);
  const success = await waitForCallback(page, "jspaymentsuccess");
  expect((await callbacks(page)).map((event) => event.name)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
  const notification = await receiver.waitFor("frictionless");
  expect(notification.body).toMatchObject({ sessionid: sessionId, paymentid: success.payload.paymentid, status: "approved", eci: 5 });
});

test("challenge completed: jschallengestarted, jschallengecompleted, then jspaymentsuccess", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS", notificationurl: receiver.url("challenge-ok") });
  await typeCard(page, card(CHALLENGE_REQUIRED));
  await pay(page);
  const started = await waitForCallback(page, "jschallengestarted");
  const paymentid = started.payload.paymentid as string;
  expect(started.payload).toEqual({ sessionid: sessionId, paymentid });
  await expect(page.locator("#challenge iframe")).toBeVisible();
  await expect(acsFrame(page).getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
  await acsFrame(page).locator("input[name=code]").fill("1234");
  await acsFrame(page).getByRole("button", { name: "Complete" }).click();
  await waitForCallback(page, "jspaymentsuccess");
  expect(await callbacks(page)).toEqual([
    { name: "jsinitsuccess", payload: { sessionid: sessionId, paymentid: null } },
    { name: "jspaymentstarted", payload: { sessionid: sessionId, paymentid } },
    { name: "jschallengestarted", payload: { sessionid: sessionId, paymentid } },
    { name: "jschallengecompleted", payload: { sessionid: sessionId, paymentid } },
    { name: "jspaymentsuccess", payload: { sessionid: sessionId, paymentid } },
  ]);
  // The challenge frame is removed once the challenge is over.
  await expect(page.locator("#challenge iframe")).toHaveCount(0);
  expect((await receiver.waitFor("challenge-ok")).body).toMatchObject({ status: "approved", paymentid, eci: 5 });
});

test("challenge failed: jspaymentfailed with AUTHENTICATION_FAILED and no approval", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS" });
  await typeCard(page, card(CHALLENGE));
  await pay(page);
  const started = await waitForCallback(page, "jschallengestarted");
  await acsFrame(page).getByRole("button", { name: "Fail authentication" }).click();
  const failed = await waitForCallback(page, "jspaymentfailed");
  expect(failed.payload).toEqual({
    sessionid: sessionId,
    paymentid: started.payload.paymentid,
    errorcode: "AUTHENTICATION_FAILED",
    errortext: "The cardholder could not be authenticated (3-D Secure).",
  });
  const names = (await callbacks(page)).map((event) => event.name);
  expect(names).not.toContain("jspaymentsuccess");
  expect(names).not.toContain("jschallengecompleted");
  await expect(page.locator("#challenge iframe")).toHaveCount(0);
});

test("challenge cancelled at the issuer: jschallengeaborted, and the cardholder may try again", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS" });
  await typeCard(page, card(CHALLENGE));
  await pay(page);
  const started = await waitForCallback(page, "jschallengestarted");
  await acsFrame(page).getByRole("button", { name: "Cancel" }).click();
  const aborted = await waitForCallback(page, "jschallengeaborted");
  expect(aborted.payload).toEqual({ sessionid: sessionId, paymentid: started.payload.paymentid });
  await expect(page.locator("#challenge iframe")).toHaveCount(0);
  // The window is still open: paying again starts a new challenge for the same payment.
  await pay(page);
  const again = await waitForCallback(page, "jschallengestarted", 2);
  expect(again.payload.paymentid).toBe(started.payload.paymentid);
});

test("challenge cancelled with the Cancel button of our challenge frame", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS" });
  await typeCard(page, card(CHALLENGE));
  await pay(page);
  const started = await waitForCallback(page, "jschallengestarted");
  await page.frameLocator("#challenge iframe").getByRole("button", { name: "Cancel" }).click();
  const aborted = await waitForCallback(page, "jschallengeaborted");
  expect(aborted.payload).toEqual({ sessionid: sessionId, paymentid: started.payload.paymentid });
});

test("FALLBACK_3DS: the challenge only runs when the authorization without 3-D Secure is declined", async ({ page }) => {
  await openDemoShop(page, { set3ds: "FALLBACK_3DS" });
  await typeCard(page, card(CHALLENGE_REQUIRED));
  await pay(page);
  await waitForCallback(page, "jschallengestarted");
  await acsFrame(page).locator("input[name=code]").fill("1234");
  await acsFrame(page).getByRole("button", { name: "Complete" }).click();
  await waitForCallback(page, "jspaymentsuccess");
  expect((await callbacks(page)).map((event) => event.name)).toEqual([
    "jsinitsuccess",
    "jspaymentstarted",
    "jschallengestarted",
    "jschallengecompleted",
    "jspaymentsuccess",
  ]);
});
