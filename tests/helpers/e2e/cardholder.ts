// What the cardholder-flow browser tests share: the demo shop (another origin than the fields),
// a notification receiver standing in for the merchant's server, and the cardholder's actions.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { eventually } from "../eventually";
import { E2E, demoCredentials } from "./demo-service";

/** The demo shop runs on 127.0.0.1; the service (and so the fields) on localhost: two origins. */
export const SHOP_ORIGIN = `http://127.0.0.1:${E2E.port}`;
export const FIELDS_ORIGIN = `http://localhost:${E2E.port}`;
export const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

export interface CallbackEvent {
  name: string;
  payload: Record<string, unknown>;
}

export interface ReceivedNotification {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** The merchant's notification endpoint: answers 200 and keeps every POST. */
export async function startNotificationReceiver() {
  const received: ReceivedNotification[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      received.push({
        path: req.url ?? "/",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
      });
    } catch {
      received.push({ path: req.url ?? "/", headers: req.headers, body: {} });
    }
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** A fresh address per test, so each test finds its own notifications. */
    url: (name: string) => `${base}/${name}`,
    async waitFor(
      name: string,
      predicate: (body: Record<string, unknown>) => boolean = () => true,
      timeoutMs = 30_000,
    ): Promise<ReceivedNotification> {
      return eventually(() => received.find((item) => item.path === `/${name}` && predicate(item.body)), {
        what: `a notification at /${name}`,
        timeoutMs,
        intervalMs: 200,
      });
    },
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type NotificationReceiver = Awaited<ReturnType<typeof startNotificationReceiver>>;

/** A notification receiver for the spec file that calls this: started before its tests, closed after them. */
export function useNotificationReceiver(): Omit<NotificationReceiver, "close"> {
  let receiver: NotificationReceiver | undefined;
  test.beforeAll(async () => {
    receiver = await startNotificationReceiver();
  });
  test.afterAll(async () => receiver?.close());
  const started = () => {
    if (!receiver) throw new Error("the notification receiver is used before beforeAll");
    return receiver;
  };
  return {
    url: (name) => started().url(name),
    waitFor: (...args) => started().waitFor(...args),
    get received() {
      return started().received;
    },
  };
}

/** What the demo shop's page takes besides `sessionid` when the test initialized the session itself. */
const PAGE_PARAMS = ["layout", "amount", "currency", "reference"];

/**
 * The demo shop takes no `notificationurl` or `paymentid` from its query (security issue 10, item
 * 4): a test that needs them initializes the session itself with the demo merchant's key (from
 * the 0600 credentials file), as a merchant's server does, and opens the page with `sessionid`.
 */
async function initializeAsMerchant(params: Record<string, string | number>): Promise<string> {
  const demo = demoCredentials();
  const body: Record<string, unknown> = { merchantid: demo.merchantId, amount: 12500, currency: "DKK", reference: "demo-order" };
  for (const [key, value] of Object.entries(params)) {
    if (key === "layout") continue;
    body[key] = key === "processor" ? String(value).split(",").filter(Boolean) : /^(amount|timeout|instantcapture|rule)$/.test(key) ? Number(value) : value;
  }
  const response = await fetch(`${FIELDS_ORIGIN}/api/initdynamic`, {
    method: "POST",
    headers: { authorization: `Basic ${demo.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const session = (await response.json()) as { sessionid?: string };
  expect(response.status, JSON.stringify(session)).toBe(200);
  const query = new URLSearchParams({ sessionid: String(session.sessionid) });
  for (const key of PAGE_PARAMS) if (key in params) query.set(key, String(params[key]));
  if (!query.has("amount")) query.set("amount", String(body.amount));
  if (!query.has("currency")) query.set("currency", String(body.currency));
  if (!query.has("reference")) query.set("reference", String(body.reference));
  return query.toString();
}

/** Opens the demo shop with these initdynamic fields and waits for jsinitsuccess. */
export async function openDemoShop(page: Page, params: Record<string, string | number> = {}, { waitForInit = true } = {}): Promise<string> {
  const all: Record<string, string | number> = { set3ds: "SKIP_3DS", ...params };
  const query =
    "notificationurl" in all || "paymentid" in all
      ? await initializeAsMerchant(all)
      : new URLSearchParams(Object.entries(all).map(([key, value]) => [key, String(value)])).toString();
  await page.goto(`${SHOP_ORIGIN}/demo-shop?${query}`);
  const sessionId = JSON.parse((await page.locator("#session").textContent()) ?? "{}").sessionid as string;
  expect(sessionId).toMatch(/^[a-f0-9]{32}$/);
  if (waitForInit) await waitForCallback(page, "jsinitsuccess");
  return sessionId;
}

export async function callbacks(page: Page, exclude: string[] = ["jsfieldchange"]): Promise<CallbackEvent[]> {
  return (await page.evaluate(() => (window as unknown as { cpsEvents: CallbackEvent[] }).cpsEvents)).filter(
    (event) => !exclude.includes(event.name),
  );
}

export async function waitForCallback(page: Page, name: string, count = 1, timeout = 30_000): Promise<CallbackEvent> {
  await page.waitForFunction(
    ({ name, count }) =>
      (window as unknown as { cpsEvents?: { name: string }[] }).cpsEvents?.filter((event) => event.name === name).length === count,
    { name, count },
    { timeout },
  );
  const all = await callbacks(page, []);
  return all.filter((event) => event.name === name)[count - 1]!;
}

export function field(page: Page, id: string): FrameLocator {
  return page.frameLocator(`#${id} iframe`);
}

export interface CardInput {
  pan?: string;
  month?: string;
  year?: string;
  cvc?: string;
}

/** Types like a person: into the number field, then on (the fields move the focus themselves when one is complete). */
export async function typeCard(page: Page, card: CardInput): Promise<void> {
  const parts: [string, string | undefined][] = [
    ["pan", card.pan],
    ["expmonth", card.month],
    ["expyear", card.year],
    ["securitycode", card.cvc],
  ];
  for (const [id, value] of parts) {
    if (value === undefined) continue;
    const input = field(page, id).locator("input");
    await input.click();
    await input.pressSequentially(value, { delay: 15 });
  }
}

export async function pay(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Pay" }).click();
}

/** The issuer's challenge page inside our challenge page inside the merchant's challenge element. */
export function acsFrame(page: Page): FrameLocator {
  return page.frameLocator("#challenge iframe").frameLocator("iframe[name=acs]");
}

/**
 * A test card expiring in December next year, the year typed in two digits as cardholders do. The
 * sandboxes decide by the number; the 3-D Secure specs pass the month and CVC of the 3DS test cards.
 */
export function testCard(pan: string, { month = "12", year = NEXT_YEAR.slice(2), cvc = "123" }: Omit<CardInput, "pan"> = {}): Required<CardInput> {
  return { pan, month, year, cvc };
}

/** Types the card into the fields and presses Pay: how a cardholder starts a payment. */
export async function payWithCard(page: Page, card: CardInput): Promise<void> {
  await typeCard(page, card);
  await pay(page);
}

/** The names of the callbacks so far, in order (jsfieldchange left out, as in `callbacks`). */
export async function callbackNames(page: Page): Promise<string[]> {
  return (await callbacks(page)).map((event) => event.name);
}

/** Answers the sandbox issuer's challenge with its code (1234) and completes it. */
export async function completeChallenge(page: Page): Promise<void> {
  await acsFrame(page).locator("input[name=code]").fill("1234");
  await acsFrame(page).getByRole("button", { name: "Complete" }).click();
}

/** Opens the demo shop, pays with the card and waits for jspaymentsuccess: the id of the approved payment. */
export async function approvedPayment(page: Page, params: Record<string, string | number>, card: CardInput): Promise<string> {
  await openDemoShop(page, params);
  await payWithCard(page, card);
  return String((await waitForCallback(page, "jspaymentsuccess")).payload.paymentid);
}
