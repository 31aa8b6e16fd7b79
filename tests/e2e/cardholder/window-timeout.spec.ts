// The payment window of `timeout` seconds: when it elapses the page gets jspaymenttimeout, the
// fields lock, goPay() answers PAYMENT_TIMEOUT and the merchant gets the timeout notification.
import { expect, test } from "@playwright/test";
import {
  callbacks,
  field,
  openDemoShop,
  pay,
  useNotificationReceiver,
  waitForCallback,
} from "../../helpers/e2e/cardholder";
import { timedOutSessionNotification } from "../../helpers/expected-notifications";

const receiver = useNotificationReceiver();

test("the window times out: callback, locked fields, PAYMENT_TIMEOUT and the notification with status timeout", async ({ page }) => {
  const merchantpaymentid = `order${Date.now()}`;
  const sessionId = await openDemoShop(page, {
    timeout: 6,
    notificationurl: receiver.url("timeout"),
    merchantpaymentid,
    merchantdata: "timeout-test",
  });
  const timedOut = await waitForCallback(page, "jspaymenttimeout", 1, 20_000);
  expect(timedOut.payload).toEqual({ sessionid: sessionId });
  await expect(field(page, "pan").locator("input")).toBeDisabled();

  await pay(page);
  const failed = await waitForCallback(page, "jspaymentfailed");
  expect(failed.payload).toEqual({
    sessionid: sessionId,
    paymentid: null,
    errorcode: "PAYMENT_TIMEOUT",
    errortext: "The payment window has timed out.",
  });

  const notification = await receiver.waitFor("timeout");
  expect(notification.body).toEqual(timedOutSessionNotification({ sessionid: sessionId, merchantpaymentid, merchantdata: "timeout-test" }));
  expect((await callbacks(page)).map((event) => event.name)).toEqual(["jsinitsuccess", "jspaymenttimeout", "jspaymentfailed"]);
});
