// 3-D Secure in Chromium: frictionless, and the challenge shown in the merchant's challenge element
// (our challenge page with the issuer's ACS inside) completed, failed and cancelled.
import { expect, test, type Page } from "@playwright/test";
import {
  acsFrame,
  callbackNames,
  callbacks,
  completeChallenge,
  openDemoShop,
  pay,
  payWithCard,
  testCard,
  useNotificationReceiver,
  waitForCallback,
} from "../../helpers/e2e/cardholder";

const receiver = useNotificationReceiver();

const card = (pan: string) => testCard(pan, { month: "11", cvc: "737" });
const CHALLENGE_REQUIRED = "4000000000003006";
const CHALLENGE = "4000000000003220";

/** Pays under FORCE_3DS with the card whose issuer always challenges, up to jschallengestarted. */
async function startChallenge(page: Page) {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS" });
  await payWithCard(page, card(CHALLENGE));
  const started = await waitForCallback(page, "jschallengestarted");
  return { sessionId, started };
}

test("frictionless: approved without a challenge, the ECI reaches the notification", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS", notificationurl: receiver.url("frictionless") });
  await payWithCard(page, card("4111111111111111"));
  const success = await waitForCallback(page, "jspaymentsuccess");
  expect(await callbackNames(page)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
  const notification = await receiver.waitFor("frictionless");
  expect(notification.body).toMatchObject({ sessionid: sessionId, paymentid: success.payload.paymentid, status: "approved", eci: 5 });
});

test("challenge completed: jschallengestarted, jschallengecompleted, then jspaymentsuccess", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS", notificationurl: receiver.url("challenge-ok") });
  await payWithCard(page, card(CHALLENGE_REQUIRED));
  const started = await waitForCallback(page, "jschallengestarted");
  const paymentid = started.payload.paymentid as string;
  expect(started.payload).toEqual({ sessionid: sessionId, paymentid });
  await expect(page.locator("#challenge iframe")).toBeVisible();
  await expect(acsFrame(page).getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
  await completeChallenge(page);
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
  const { sessionId, started } = await startChallenge(page);
  await acsFrame(page).getByRole("button", { name: "Fail authentication" }).click();
  const failed = await waitForCallback(page, "jspaymentfailed");
  expect(failed.payload).toEqual({
    sessionid: sessionId,
    paymentid: started.payload.paymentid,
    errorcode: "AUTHENTICATION_FAILED",
    errortext: "The cardholder could not be authenticated (3-D Secure).",
  });
  const names = await callbackNames(page);
  expect(names).not.toContain("jspaymentsuccess");
  expect(names).not.toContain("jschallengecompleted");
  await expect(page.locator("#challenge iframe")).toHaveCount(0);
});

test("challenge cancelled at the issuer: jschallengeaborted, and the cardholder may try again", async ({ page }) => {
  const { sessionId, started } = await startChallenge(page);
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
  const { sessionId, started } = await startChallenge(page);
  await page.frameLocator("#challenge iframe").getByRole("button", { name: "Cancel" }).click();
  const aborted = await waitForCallback(page, "jschallengeaborted");
  expect(aborted.payload).toEqual({ sessionid: sessionId, paymentid: started.payload.paymentid });
});

test("FALLBACK_3DS: the challenge only runs when the authorization without 3-D Secure is declined", async ({ page }) => {
  await openDemoShop(page, { set3ds: "FALLBACK_3DS" });
  await payWithCard(page, card(CHALLENGE_REQUIRED));
  await waitForCallback(page, "jschallengestarted");
  await completeChallenge(page);
  await waitForCallback(page, "jspaymentsuccess");
  expect(await callbackNames(page)).toEqual([
    "jsinitsuccess",
    "jspaymentstarted",
    "jschallengestarted",
    "jschallengecompleted",
    "jspaymentsuccess",
  ]);
});
