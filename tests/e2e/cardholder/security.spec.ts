// What the merchant page (or anything else) can and cannot do with our frames in Chromium: it
// cannot read the card number, messages from a foreign origin are ignored in both directions, our
// frames refuse to be framed by other origins, and a field that fails to load is reported.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { FIELDS_ORIGIN, NEXT_YEAR, callbacks, field, openDemoShop, pay, typeCard, waitForCallback } from "../../helpers/e2e/cardholder";
import { quietFor } from "../../helpers/eventually";

const PAN = "4111111111111111";

/** Another origin (another port): a page that forges our protocol's messages, and one that frames our field. */
let evil: { origin: string; close(): Promise<void> };
test.beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://evil");
    const params = Object.fromEntries(url.searchParams);
    const page =
      url.pathname === "/forge"
        ? `<!doctype html><title>forging</title><script>
const p = ${JSON.stringify(params)};
const envelope = { tag: "cps-hosted-fields/1", sessionid: p.sessionid, channel: p.channel };
const target = window.opener;
target.postMessage({ ...envelope, type: "payment-succeeded", paymentid: "forged" }, "*");
target.postMessage({ ...envelope, type: "challenge-finished", paymentid: "forged", outcome: "completed" }, "*");
for (let i = 0; i < target.frames.length; i++) target.frames[i].postMessage({ ...envelope, type: "pay" }, "*");
document.title = "sent";
</script>`
        : `<!doctype html><title>framing</title><iframe id="stolen" src="${params.src}"></iframe>`;
    res.writeHead(200, { "content-type": "text/html" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  evil = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
test.afterAll(async () => evil?.close());

test("script on the merchant page cannot read the card number, and no message to it carries a digit", async ({ page }) => {
  await openDemoShop(page);
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenMessages: string[] }).seenMessages = seen;
    window.addEventListener("message", (event) => seen.push(JSON.stringify(event.data)));
  });
  await typeCard(page, { pan: PAN, month: "12", year: NEXT_YEAR.slice(2), cvc: "123" });
  await expect(page.locator("#securitycode")).toHaveClass(/cps-valid/);
  const attempt = await page.evaluate(() => {
    const iframe = document.querySelector<HTMLIFrameElement>("#pan iframe")!;
    const results: Record<string, string> = { contentDocument: String(iframe.contentDocument) };
    try {
      results.document = String(iframe.contentWindow!.document.querySelector("input")?.value);
    } catch (error) {
      results.document = (error as Error).name;
    }
    try {
      results.frames = String((window.frames[0] as Window).document.body.innerHTML);
    } catch (error) {
      results.frames = (error as Error).name;
    }
    return results;
  });
  expect(attempt).toEqual({ contentDocument: "null", document: "SecurityError", frames: "SecurityError" });
  const html = await page.content();
  expect(html).not.toContain(PAN);
  expect(html).not.toContain("4111 1111");
  const messages = await page.evaluate(() => (window as unknown as { seenMessages: string[] }).seenMessages);
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) {
    expect(message).not.toMatch(/4111|1111|"123"/);
  }
  // The fields did receive the number: the payment goes through.
  await pay(page);
  await waitForCallback(page, "jspaymentsuccess");
});

test("messages from a foreign origin are ignored by dynamic.js and by our frames", async ({ page }) => {
  const sessionId = await openDemoShop(page);
  const src = await page.locator("#pan iframe").getAttribute("src");
  const channel = new URL(src!).hash.match(/c=([0-9a-f]+)/)![1]!;
  const popupPromise = page.waitForEvent("popup");
  await page.evaluate((url) => window.open(url), `${evil.origin}/forge?sessionid=${sessionId}&channel=${channel}`);
  const popup = await popupPromise;
  await expect(popup).toHaveTitle("sent");
  await quietFor(1500, "the forged messages reach the page, were they to have any effect");
  // Neither the forged success nor the forged "pay" (which would have answered PAN_MISSING) had any effect.
  expect((await callbacks(page)).map((event) => event.name)).toEqual(["jsinitsuccess"]);
  // The same page's own goPay() still reaches our controller: the channel itself works.
  await pay(page);
  const failed = await waitForCallback(page, "jspaymentfailed");
  expect(failed.payload.errorcode).toBe("PAN_MISSING");
});

test("our field refuses to be framed by any origin but the merchant page it is bound to", async ({ page }) => {
  await openDemoShop(page);
  const src = await page.locator("#pan iframe").getAttribute("src");
  expect(src!.startsWith(`${FIELDS_ORIGIN}/dynamic/`)).toBe(true);
  await page.goto(`${evil.origin}/frame?src=${encodeURIComponent(src!)}`);
  await quietFor(1500, "the framed field loads, were it allowed to");
  const framed = page.frames().find((frame) => frame.url().startsWith(FIELDS_ORIGIN));
  // Chromium blocks the page (frame-ancestors): no frame of ours, or an empty error frame.
  const inputs = framed
    ? await framed
        .locator("input")
        .count()
        .catch(() => 0)
    : 0;
  expect(inputs).toBe(0);
});

test("a field that fails to load is reported through jsfieldloaderror instead of hanging", async ({ page }) => {
  await page.route("**/dynamic/*/expyear*", (route) => route.abort("connectionrefused"));
  const sessionId = await openDemoShop(page, {}, { waitForInit: false });
  const error = await waitForCallback(page, "jsfieldloaderror", 1, 30_000);
  expect(error.payload).toEqual({ sessionid: sessionId, field: "expyear", reason: "the field did not load in time" });
  await expect(page.locator("#expyear")).toHaveClass(/cps-load-error/);
  expect((await callbacks(page)).map((event) => event.name)).not.toContain("jsinitsuccess");
});

test("the frames of a session whose window has closed refuse and say why", async ({ page }) => {
  const sessionId = await openDemoShop(page, { timeout: 3 });
  await waitForCallback(page, "jspaymenttimeout", 1, 15_000);
  // The same page loading the field again (as after a reload of the frame): the refusal reaches jsfieldloaderror.
  await page.evaluate(() => {
    const iframe = document.querySelector<HTMLIFrameElement>("#pan iframe")!;
    iframe.src = iframe.src.replace("#", "&reload=1#");
  });
  await expect(field(page, "pan").locator("body")).toContainText("The payment window of this session has closed.");
  expect(sessionId).toBeTruthy();
});
