// Item 8 of the security issue (frames and origins): the hosted fields' origin binding trusted the
// Origin/Referer of the dynamic.js request, so anyone holding a session id could show the real card
// fields on any site. With allowed checkout origins listed (merchant, or hostedid), only those pages
// get a binding, and the frames' frame-ancestors name only them. Real HTTP against the cardholder
// route handlers, and Debian's Chromium loading dynamic.js from a listed and from a foreign page.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { checkoutOriginsSchema, parseCheckoutOrigin } from "@/lib/validation/checkout-origins";
import { updateCheckoutOrigins } from "@/lib/backoffice/actions/update-checkout-origins";
import { saveHostedIntegration } from "@/lib/backoffice/actions/save-hosted-integration";
import type { Actor } from "@/lib/auth/actor";
import { createUser } from "@/lib/users/create-user";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { launchChromium, type LaunchedChromium } from "@/tests/helpers/chromium";
import { useHostedFieldsServer } from "../helpers/hosted-fields-window";
import { createTestMerchant, createTestSession } from "../helpers/session-factory";
import { eventually } from "../helpers/eventually";

useTestDatabase();

interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** A merchant checkout page (any origin): the four field elements and dynamic.js for ?session=. */
async function startCheckoutPage(fieldsOrigin: () => string): Promise<PageServer> {
  const server = http.createServer((req, res) => {
    const session = new URL(req.url ?? "/", "http://page").searchParams.get("session") ?? "";
    res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>checkout</title>
<div id="pan"></div><div id="expmonth"></div><div id="expyear"></div><div id="securitycode"></div>
<script src="${fieldsOrigin()}/dynamic/${session}/dynamic.js" referrerpolicy="origin"></script>
<script>window.loadErrors = []; initDynamic({ jsfieldloaderror: function (e) { window.loadErrors.push(e); } });</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const server = useHostedFieldsServer();
let shop: PageServer;
let evil: PageServer;
let browser: LaunchedChromium;

beforeAll(async () => {
  shop = await startCheckoutPage(() => server.origin);
  evil = await startCheckoutPage(() => server.origin);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await evil?.close();
});

async function merchantListing(origins: string[]): Promise<string> {
  const merchant = await createTestMerchant("Origins shop");
  await db().merchant.update({ where: { id: merchant.id }, data: { allowedCheckoutOrigins: origins } });
  return merchant.id;
}

/** Whether a page at `pageOrigin` shows the real card-number field of the session (an input inside our pan frame). */
async function fieldsShownOn(page: PageServer, sessionId: string): Promise<{ shown: boolean; loadErrors: unknown[] }> {
  const tab = await browser.context.newPage();
  try {
    await tab.goto(`${page.origin}/?session=${sessionId}`);
    let loadErrors: unknown[] = [];
    const shown = await eventually(
      async () => {
        const ours = tab.frames().filter((frame) => frame.url().startsWith(`${server.origin}/dynamic/${sessionId}/pan`));
        for (const frame of ours) if ((await frame.locator("input").count().catch(() => 0)) > 0) return "shown";
        loadErrors = (await tab.evaluate(() => (window as unknown as { loadErrors: unknown[] }).loadErrors)) ?? [];
        return loadErrors.length > 0 ? "refused" : undefined;
      },
      { timeoutMs: 8_000, intervalMs: 200, onTimeout: "return" },
    );
    return shown === "shown" ? { shown: true, loadErrors: [] } : { shown: false, loadErrors };
  } finally {
    await tab.close();
  }
}

async function dynamicJsConfig(sessionId: string, headers: Record<string, string>): Promise<{ binding: string; closedReason?: string }> {
  const script = await (await fetch(`${server.origin}/dynamic/${sessionId}/dynamic.js`, { headers })).text();
  const json = /CPSDynamic\.boot\((\{.*\})\);\}\)\(\);\s*$/s.exec(script)?.[1];
  return JSON.parse(json!) as { binding: string; closedReason?: string };
}

describe("item 8: checkout origins bind the hosted fields to the merchant's own pages", () => {
  it("item 8: in Chromium, a page on a non-listed origin cannot show the fields of a session whose merchant lists origins; a listed page can", async () => {
    const merchantId = await merchantListing([shop.origin]);
    const session = await createTestSession(merchantId);

    const onShop = await fieldsShownOn(shop, session.id);
    expect(onShop.shown).toBe(true);

    const onEvil = await fieldsShownOn(evil, session.id);
    expect(onEvil.shown).toBe(false);
    expect(JSON.stringify(onEvil.loadErrors)).toContain("allowed checkout origins");
  });

  it("item 8: dynamic.js gives a non-listed origin no binding, and a binding made for it anyway opens no frame", async () => {
    const merchantId = await merchantListing([shop.origin]);
    const session = await createTestSession(merchantId);

    expect((await dynamicJsConfig(session.id, { referer: `${evil.origin}/checkout` })).binding).toBe("");
    expect((await dynamicJsConfig(session.id, { origin: evil.origin })).binding).toBe("");
    const listed = await dynamicJsConfig(session.id, { referer: `${shop.origin}/checkout` });
    expect(listed.binding).not.toBe("");

    // A binding signed for the foreign origin (as dynamic.js gave it before the merchant listed origins).
    const stale = createOriginBinding(session.id, evil.origin);
    for (const frame of ["pan", "controller"]) {
      const refused = await fetch(`${server.origin}/dynamic/${session.id}/${frame}?b=${encodeURIComponent(stale)}`);
      expect(refused.status).toBe(403);
      expect(refused.headers.get("content-security-policy")).not.toContain(evil.origin);
    }
    // The listed page's frames may be embedded by that page only.
    const allowed = await fetch(`${server.origin}/dynamic/${session.id}/pan?b=${encodeURIComponent(listed.binding)}`);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("content-security-policy")).toMatch(new RegExp(`frame-ancestors ${shop.origin.replace(/\./g, "\\.")}(;|$)`));
  });

  it("item 8: a hostedid's own list replaces the merchant's; without any list the page that loads dynamic.js is bound (documented default)", async () => {
    const merchantId = await merchantListing([shop.origin]);
    const integration = await db().hostedIntegration.create({
      data: { id: newId(), merchantId, hostedId: `h${Date.now()}`, name: "Other checkout", allowedCheckoutOrigins: [evil.origin] },
    });
    const viaIntegration = await createTestSession(merchantId, { hostedIntegrationId: integration.id });
    expect((await dynamicJsConfig(viaIntegration.id, { referer: `${evil.origin}/` })).binding).not.toBe("");
    expect((await dynamicJsConfig(viaIntegration.id, { referer: `${shop.origin}/` })).binding).toBe("");

    const unlisted = await createTestSession(await merchantListing([]));
    expect((await dynamicJsConfig(unlisted.id, { referer: `${evil.origin}/` })).binding).not.toBe("");
  });

  it("item 8: the back office saves the merchant's and a hostedid's lists (owner only, audited), and dynamic.js follows them", async () => {
    const merchantId = await merchantListing([]);
    const user = await createUser({ merchantId, email: `owner-${merchantId}@example.com`, name: "Owner", password: "long enough password", role: "OWNER" });
    const owner: Actor = { userId: user.id, merchantId, mode: "test" as const, role: "OWNER" };
    const viewer: Actor = { ...owner, role: "VIEWER" };
    await expect(updateCheckoutOrigins({ actor: viewer, input: { allowedCheckoutOrigins: shop.origin } })).rejects.toThrow();
    await expect(updateCheckoutOrigins({ actor: owner, input: { currentPassword: "long enough password", allowedCheckoutOrigins: `${shop.origin}/checkout` } })).rejects.toThrow(/not an origin/);
    expect(await updateCheckoutOrigins({ actor: owner, input: { currentPassword: "long enough password", allowedCheckoutOrigins: `${shop.origin}\n` } })).toEqual([shop.origin]);
    expect(await db().auditEntry.count({ where: { merchantId, action: "settings.checkout_origins.updated" } })).toBe(1);
    const session = await createTestSession(merchantId);
    expect((await dynamicJsConfig(session.id, { referer: `${evil.origin}/` })).binding).toBe("");

    const saved = await saveHostedIntegration({
      actor: owner,
      input: { currentPassword: "long enough password", hostedId: "own-list", name: "Own list", defaultNotificationUrl: "", completionNotificationUrl: "", lifecycleNotificationUrl: "", styling: "{}", allowedCheckoutOrigins: evil.origin },
    });
    expect((await db().hostedIntegration.findUniqueOrThrow({ where: { id: saved.id } })).allowedCheckoutOrigins).toEqual([evil.origin]);
    await expect(
      saveHostedIntegration({
        actor: owner,
        input: { currentPassword: "long enough password", hostedId: "bad-list", name: "Bad", defaultNotificationUrl: "", completionNotificationUrl: "", lifecycleNotificationUrl: "", styling: "{}", allowedCheckoutOrigins: "https://*.example" },
      }),
    ).rejects.toThrow(/wildcards/);
  });

  it("item 8: origins are validated strictly: scheme://host[:port] only, https in production", () => {
    const local = { allowHttp: true };
    const production = { allowHttp: false };
    expect(parseCheckoutOrigin("https://Shop.Example:443", production)).toEqual({ origin: "https://shop.example" });
    expect(parseCheckoutOrigin("http://127.0.0.1:8080", local)).toEqual({ origin: "http://127.0.0.1:8080" });
    for (const bad of [
      "http://shop.example",
      "https://shop.example/checkout",
      "https://shop.example/",
      "https://shop.example?x=1",
      "https://*.shop.example",
      "https://user@shop.example",
      "javascript:alert(1)",
      "shop.example",
      "null",
    ]) {
      expect({ bad, result: "error" in parseCheckoutOrigin(bad, production) }).toEqual({ bad, result: true });
    }
    expect(checkoutOriginsSchema(local).parse("https://a.example\nhttps://b.example, https://a.example")).toEqual(["https://a.example", "https://b.example"]);
    expect(checkoutOriginsSchema(production).safeParse("https://a.example\nhttp://b.example").success).toBe(false);
    expect(checkoutOriginsSchema(local).parse("")).toEqual([]);
  });
});
