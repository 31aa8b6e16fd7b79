// The documented fallback cards (docs/integration.md, "Test cards") under every set3ds value, in
// Chromium through the demo shop: declined by the first processor(s), approved by the next, with one
// completion notification naming the processor that approved. Under FORCE_3DS and FALLBACK_3DS each
// next account is authenticated again (decision 0192); a challenge the next account's issuer asks for
// appears in the same challenge element.
import { expect, test } from "@playwright/test";
import {
  NEXT_YEAR,
  acsFrame,
  callbackNames,
  callbacks,
  completeChallenge,
  openDemoShop,
  payWithCard,
  testCard,
  useNotificationReceiver,
  waitForCallback,
} from "../../helpers/e2e/cardholder";

const receiver = useNotificationReceiver();

const card = (pan: string) => testCard(pan, { year: NEXT_YEAR });

const FALLBACK_CARDS = [
  // Declined by finaro (05), approved by clearhaus and bambora.
  { pan: "4000000000001000", params: { processor: "finaro,clearhaus", currency: "DKK" }, approvedBy: "clearhaus" },
  // Declined by finaro and clearhaus (05), approved by bambora (the demo's bambora account takes CAD).
  { pan: "4000000000002008", params: { processor: "finaro,clearhaus,bambora", currency: "CAD" }, approvedBy: "bambora" },
] as const;

for (const set3ds of ["SKIP_3DS", "FORCE_3DS", "FALLBACK_3DS"] as const) {
  for (const fallback of FALLBACK_CARDS) {
    test(`${set3ds}: ${fallback.pan} falls back and is approved by ${fallback.approvedBy}, with one completion notification`, async ({ page }) => {
      const key = `${set3ds}-${fallback.pan}`;
      const sessionId = await openDemoShop(page, { ...fallback.params, set3ds, amount: 2500, notificationurl: receiver.url(key) });
      await payWithCard(page, card(fallback.pan));
      const success = await waitForCallback(page, "jspaymentsuccess");
      // Frictionless everywhere: no challenge was shown for any account.
      expect(await callbackNames(page)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
      const notification = await receiver.waitFor(key);
      expect(notification.body).toMatchObject({
        sessionid: sessionId,
        paymentid: success.payload.paymentid,
        status: "approved",
        processor: fallback.approvedBy,
        ...(set3ds === "SKIP_3DS" ? {} : { eci: 5 }),
      });
      // One completion notification, nothing else for the session.
      await page.waitForTimeout(500);
      expect(receiver.received.filter((item) => item.path === `/${key}`)).toHaveLength(1);
    });
  }
}

test("FORCE_3DS: a challenge the next account's issuer asks for appears in the same window, after finaro declined the first", async ({ page }) => {
  const sessionId = await openDemoShop(page, { set3ds: "FORCE_3DS", processor: "finaro,clearhaus", notificationurl: receiver.url("second-challenge") });
  // The issuer challenges every authentication; finaro declines (05), clearhaus approves.
  await payWithCard(page, card("4000000000060170"));
  for (let round = 1; round <= 2; round++) {
    await waitForCallback(page, "jschallengestarted", round);
    await expect(page.locator("#challenge iframe")).toBeVisible();
    await expect(acsFrame(page).getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
    await completeChallenge(page);
    await waitForCallback(page, "jschallengecompleted", round);
  }
  const success = await waitForCallback(page, "jspaymentsuccess");
  const paymentid = success.payload.paymentid;
  expect(await callbacks(page)).toEqual([
    { name: "jsinitsuccess", payload: { sessionid: sessionId, paymentid: null } },
    { name: "jspaymentstarted", payload: { sessionid: sessionId, paymentid } },
    { name: "jschallengestarted", payload: { sessionid: sessionId, paymentid } },
    { name: "jschallengecompleted", payload: { sessionid: sessionId, paymentid } },
    { name: "jschallengestarted", payload: { sessionid: sessionId, paymentid } },
    { name: "jschallengecompleted", payload: { sessionid: sessionId, paymentid } },
    { name: "jspaymentsuccess", payload: { sessionid: sessionId, paymentid } },
  ]);
  await expect(page.locator("#challenge iframe")).toHaveCount(0);
  expect((await receiver.waitFor("second-challenge")).body).toMatchObject({ status: "approved", paymentid, processor: "clearhaus", eci: 5 });
});
