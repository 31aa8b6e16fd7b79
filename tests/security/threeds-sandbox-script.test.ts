// Item 5 of the security issue: script injection on the service's origin through the 3-D Secure
// sandbox it mounts under /sandbox/threeds. The attack: start an authentication at the mounted DS
// with the API key that was a constant in the source and a `javascript:` notificationURL, open the
// challenge in a browser, complete it; the post-challenge page submitted its form to that address,
// and the script ran on the origin that also serves the back office. Real HTTP against the route
// handlers (the sandbox mounted the way the service mounts it) and Debian's Chromium.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "@playwright/test";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { SANDBOX_CHALLENGE_CODE, THREEDS_SANDBOX_API_KEY } from "@/lib/sandboxes/threeds/directory-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { launchChromium, type LaunchedChromium } from "@/tests/helpers/chromium";
import { useHostedFieldsServer } from "../helpers/hosted-fields-window";
import { createTestMerchant, createTestSession } from "../helpers/session-factory";
import { quietFor } from "../helpers/eventually";
import { minimalAReq } from "../helpers/threeds-messages";

useTestDatabase();

/** The key that was written in lib/sandboxes/threeds/directory-server.ts until this fix. */
const KEY_FROM_THE_SOURCE = "threeds-sandbox-api-key";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

const server = useHostedFieldsServer();
let sandboxes: RunningSandboxes;
let browser: LaunchedChromium;
let merchantId: string;

beforeAll(async () => {
  // As the service starts it: the challenge pages are served on the service's own origin.
  sandboxes = await startSandboxes({ threeDsPublicUrl: `${server.origin}/sandbox/threeds`, extensions: true });
  browser = await launchChromium();
  merchantId = (await createTestMerchant("3DS sandbox shop")).id;
});
afterAll(async () => {
  await browser?.close();
  await sandboxes?.close();
});

/** The sandboxes' smallest AReq, for a card that asks for a challenge, in euro. */
function areq(notificationURL: string) {
  return { ...minimalAReq("4000000000003220", notificationURL), purchaseCurrency: "978" };
}

async function sendAReq(body: ReturnType<typeof areq>, apiKey: string) {
  const response = await fetch(`${server.origin}/sandbox/threeds/auth`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: apiKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json().catch(() => ({}))) as Record<string, string> };
}

function creqFor(message: ReturnType<typeof areq>, acsTransID: string): string {
  const creq = { messageType: "CReq", messageVersion: "2.2.0", threeDSServerTransID: message.threeDSServerTransID, acsTransID, challengeWindowSize: "05" };
  return Buffer.from(JSON.stringify(creq)).toString("base64url");
}

/** A top-level form post from a blank page (the attacker's or the merchant's), as a browser sends it. */
async function postForm(page: Page, action: string, fields: Record<string, string>): Promise<void> {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, "&quot;")}">`)
    .join("");
  await page.setContent(`<form id="f" method="post" action="${action}">${inputs}</form>`);
  await Promise.all([page.waitForNavigation(), page.evaluate(() => (document.getElementById("f") as HTMLFormElement).submit())]);
}

describe("item 5: the 3-D Secure sandbox cannot run script on the service origin", () => {
  it("item 5: the mounted sandbox DS refuses the API key that was a constant in the source; its key is random per process", async () => {
    const refused = await sendAReq(areq(`${server.origin}/dynamic/a1/payments/b2/challenge-notify`), KEY_FROM_THE_SOURCE);
    expect(refused.status).toBe(401);
    expect(THREEDS_SANDBOX_API_KEY).not.toBe(KEY_FROM_THE_SOURCE);
    expect(Buffer.from(THREEDS_SANDBOX_API_KEY, "base64url").length).toBeGreaterThanOrEqual(32);
  });

  it("item 5: a javascript: notificationURL, or any address but the service's own challenge-notify, is refused by the DS", async () => {
    for (const notificationURL of [
      "javascript:alert(document.domain)",
      "JavaScript:alert(1)//https://x",
      "data:text/html,<script>alert(1)</script>",
      "https://evil.example/dynamic/a1/payments/b2/challenge-notify",
      `${server.origin}/backoffice/settings`,
      `${server.origin}/dynamic/a1/payments/b2/challenge-notify#x`,
    ]) {
      const answer = await sendAReq(areq(notificationURL), THREEDS_SANDBOX_API_KEY);
      expect({ notificationURL, status: answer.status }).toEqual({ notificationURL, status: 400 });
      expect(answer.json).toMatchObject({ messageType: "Erro", errorCode: "203" });
    }
    const own = await sendAReq(areq(`${server.origin}/dynamic/a1/payments/b2/challenge-notify?b=x`), THREEDS_SANDBOX_API_KEY);
    expect(own.status).toBe(200);
    expect(own.json.transStatus).toBe("C");
  });

  it("item 5: in Chromium, the attack end to end runs no script on the service origin", async () => {
    const page = await browser.context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      // What an attacker knows: the key that was in the source.
      const message = areq("javascript:alert('xss on '+document.domain)");
      const started = await sendAReq(message, KEY_FROM_THE_SOURCE);
      // The challenge, with whatever the DS answered (nothing usable once it refuses).
      await postForm(page, `${server.origin}/sandbox/threeds/acs/challenge`, { creq: creqFor(message, started.json.acsTransID ?? randomUUID()) });
      if (await page.locator("input[name=code]").count()) {
        await page.fill("input[name=code]", SANDBOX_CHALLENGE_CODE);
        await page.click("button[value=complete]");
      }
      await page.waitForLoadState("load");
      await quietFor(1000, "a script the page ran, were one injected, opens its dialog");
      expect(dialogs).toEqual([]);
      expect(started.status).toBe(401);
    } finally {
      await page.close();
    }
  });

  it("item 5: in Chromium, every sandbox page carries a nonce CSP, and a real challenge completes under it with no violation", async () => {
    const session = await createTestSession(merchantId, { set3ds: "FORCE_3DS", notificationUrl: "http://127.0.0.1:9/notify" });
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${server.origin}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.origin },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, string>;
    const paymentId = (await post(`/dynamic/${session.id}/payments`, {})).paymentid!;
    const binding = createOriginBinding(session.id, "http://shop.example");
    const card = { pan: "4000000000003220", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };
    const challenge = await post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, { card, binding });
    expect(challenge.result).toBe("challenge");
    const link = new URL(challenge.url!, server.origin);
    const acsUrl = link.searchParams.get("acs")!;
    expect(acsUrl.startsWith(`${server.origin}/sandbox/threeds/`)).toBe(true);

    const page = await browser.context.newPage();
    const violations: string[] = [];
    const sandboxPages: { url: string; csp: string; body: string }[] = [];
    page.on("console", (entry) => {
      if (/Content Security Policy/i.test(entry.text())) violations.push(entry.text());
    });
    // Passed through unchanged; read on the way (an auto-submitting page is gone before its body could be asked for).
    await page.route("**/sandbox/threeds/**", async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if ((response.headers()["content-type"] ?? "").includes("text/html"))
        sandboxPages.push({ url: route.request().url(), csp: response.headers()["content-security-policy"] ?? "", body });
      await route.fulfill({ response, body });
    });
    try {
      await postForm(page, acsUrl, { creq: link.searchParams.get("creq")! });
      await page.fill("input[name=code]", SANDBOX_CHALLENGE_CODE);
      await Promise.all([
        page.waitForURL(`**/dynamic/${session.id}/payments/${paymentId}/challenge-notify**`),
        page.click("button[value=complete]"),
      ]);
      await expect.poll(async () => (await db().threeDsAuthentication.findFirst({ where: { paymentId } }))?.state).toBe("completed");
      expect(await page.textContent("body")).toContain("Verified");
    } finally {
      await page.close();
    }
    // The challenge page and the post-challenge auto-submit page.
    expect(sandboxPages.length).toBeGreaterThanOrEqual(2);
    for (const { url, csp, body } of sandboxPages) {
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect({ url, nonce: Boolean(nonce) }).toEqual({ url, nonce: true });
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("unsafe-inline");
      for (const tag of body.match(/<(script|style)\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
      // Forms go to the sandbox itself or to the checked notification address only.
      expect(csp).toMatch(new RegExp(`form-action ('self'|${server.origin.replace(/[.]/g, "\\.")})(;|$)`));
    }
    expect(violations).toEqual([]);
  });
});
