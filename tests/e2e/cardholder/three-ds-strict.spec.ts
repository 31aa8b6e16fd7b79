// 3-D Secure in Chromium against the strict 3DS Server sandbox (lib/sandboxes/threeds/three-ds-server.ts,
// from the 3dsecure.io reference), for each acquirer: frictionless after the 3DS Method, challenge
// completed / failed / cancelled, a method page that never answers (the 10 s limit), and
// authentication unavailable. Runs in the "chromium-strict-3ds" project, whose service mounts the
// strict sandbox (THREEDS_SANDBOX=strict, playwright.config.ts). The cards are published test numbers
// (Stripe's 4000 0000 00xx xxxx range, which every acquirer sandbox of ours approves) whose last four
// digits pick the reference's test case (sandbox.rst): see docs/acquirers.md, "3-D Secure in test mode".
import { expect, test, type Page } from "@playwright/test";
import {
  acsFrame,
  callbackNames,
  completeChallenge,
  openDemoShop,
  pay,
  payWithCard,
  testCard,
  typeCard,
  useNotificationReceiver,
  waitForCallback,
} from "../../helpers/e2e/cardholder";

const receiver = useNotificationReceiver();

const card = (pan: string) => testCard(pan, { month: "11", cvc: "737" });
/** Last four 2003: 2.1.0-2.3.1, a 3DS Method URL, frictionless Y. */
const FRICTIONLESS_WITH_METHOD = "4000000000052003";
/** Last four 2203: a method URL whose page never answers, then frictionless Y. */
const METHOD_TIMEOUT = "4000000000032203";
/** Last four 2072: 2.2.0, a method URL, challenge (manual: the code 1234). */
const CHALLENGE = "4000000000012072";
/** Last four 2153: no method URL, transStatus U (authentication unavailable). */
const UNAVAILABLE = "4000000000032153";

const ACQUIRERS = [
  { processor: "finaro", currency: "DKK" },
  { processor: "clearhaus", currency: "DKK" },
  // The demo merchant's bambora account is a Bambora North America CAD account.
  { processor: "bambora", currency: "CAD" },
] as const;

/** Content-Security-Policy refusals Chromium reports in any frame (the method frame must need none). */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

/** The hidden 3DS Method frame the controller frame adds (and removes when the method ends). */
const methodFrames = (page: Page) => page.frameLocator("iframe[title='Payment']").locator("iframe[title='Card verification']");

for (const { processor, currency } of ACQUIRERS) {
  test.describe(`${processor}`, () => {
    const open = (page: Page, key: string, set3ds = "FORCE_3DS") =>
      openDemoShop(page, { set3ds, processor, currency, notificationurl: receiver.url(`${processor}-${key}`) });
    /** Pays with the card whose issuer challenges, up to jschallengestarted. */
    const startChallenge = async (page: Page, key: string) => {
      const sessionId = await open(page, key);
      await payWithCard(page, card(CHALLENGE));
      return { sessionId, started: await waitForCallback(page, "jschallengestarted") };
    };

    test("frictionless after the 3DS Method: approved, the ECI reaches the notification", async ({ page }) => {
      const violations = cspViolations(page);
      const sessionId = await open(page, "frictionless");
      await typeCard(page, card(FRICTIONLESS_WITH_METHOD));
      const before = Date.now();
      await pay(page);
      const success = await waitForCallback(page, "jspaymentsuccess");
      // The controller goes on before its 10 s only on our notification page's message: the ACS's
      // method page ran in the browser and posted back (threeDSCompInd Y), and no policy was in the way.
      expect(Date.now() - before).toBeLessThan(10_000);
      expect(violations).toEqual([]);
      await expect(methodFrames(page)).toHaveCount(0);
      expect(await callbackNames(page)).toEqual(["jsinitsuccess", "jspaymentstarted", "jspaymentsuccess"]);
      const notification = await receiver.waitFor(`${processor}-frictionless`);
      expect(notification.body).toMatchObject({ sessionid: sessionId, paymentid: success.payload.paymentid, status: "approved", eci: 5 });
    });

    test("challenge completed after the 3DS Method", async ({ page }) => {
      const { started } = await startChallenge(page, "challenge-ok");
      await expect(acsFrame(page).getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
      await completeChallenge(page);
      await waitForCallback(page, "jspaymentsuccess");
      expect(await callbackNames(page)).toEqual([
        "jsinitsuccess",
        "jspaymentstarted",
        "jschallengestarted",
        "jschallengecompleted",
        "jspaymentsuccess",
      ]);
      expect((await receiver.waitFor(`${processor}-challenge-ok`)).body).toMatchObject({
        status: "approved",
        paymentid: started.payload.paymentid,
        eci: 5,
      });
    });

    test("challenge failed: AUTHENTICATION_FAILED, nothing approved", async ({ page }) => {
      const { sessionId, started } = await startChallenge(page, "challenge-fail");
      await acsFrame(page).getByRole("button", { name: "Fail authentication" }).click();
      const failed = await waitForCallback(page, "jspaymentfailed");
      expect(failed.payload).toMatchObject({
        sessionid: sessionId,
        paymentid: started.payload.paymentid,
        errorcode: "AUTHENTICATION_FAILED",
      });
      expect(await callbackNames(page)).not.toContain("jspaymentsuccess");
    });

    test("challenge cancelled at the issuer: jschallengeaborted, nothing approved", async ({ page }) => {
      const { sessionId, started } = await startChallenge(page, "challenge-cancel");
      await acsFrame(page).getByRole("button", { name: "Cancel" }).click();
      const aborted = await waitForCallback(page, "jschallengeaborted");
      expect(aborted.payload).toEqual({ sessionid: sessionId, paymentid: started.payload.paymentid });
      expect(await callbackNames(page)).not.toContain("jspaymentsuccess");
    });

    test("a 3DS Method page that never answers: the payment goes on after 10 s (threeDSCompInd N) and is approved", async ({ page }) => {
      await open(page, "method-timeout");
      await typeCard(page, card(METHOD_TIMEOUT));
      const before = Date.now();
      await pay(page);
      // The hidden method frame is there while the ACS keeps silent, and gone once the 10 s are over.
      await expect(methodFrames(page)).toHaveCount(1);
      await waitForCallback(page, "jspaymentsuccess");
      expect(Date.now() - before).toBeGreaterThanOrEqual(10_000);
      await expect(methodFrames(page)).toHaveCount(0);
      expect((await receiver.waitFor(`${processor}-method-timeout`)).body).toMatchObject({ status: "approved", eci: 5 });
    });

    test("authentication unavailable (U) under FORCE_3DS: AUTHENTICATION_FAILED; under FALLBACK_3DS approved without it", async ({
      page,
    }) => {
      await open(page, "unavailable");
      await payWithCard(page, card(UNAVAILABLE));
      const failed = await waitForCallback(page, "jspaymentfailed");
      expect(failed.payload).toMatchObject({ errorcode: "AUTHENTICATION_FAILED" });
      await open(page, "unavailable-fallback", "FALLBACK_3DS");
      await payWithCard(page, card(UNAVAILABLE));
      await waitForCallback(page, "jspaymentsuccess");
      const notification = await receiver.waitFor(`${processor}-unavailable-fallback`);
      expect(notification.body).toMatchObject({ status: "approved" });
      expect(notification.body).not.toHaveProperty("eci", 5);
    });
  });
}
