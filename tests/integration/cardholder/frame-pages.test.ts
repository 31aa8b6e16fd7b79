// The hosted-field pages and dynamic.js over HTTP: bound to their session and to the merchant page
// origin, refused for unknown, expired and finished sessions, with a strict Content-Security-Policy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, Prisma } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { startHostedFieldsServer, type HostedFieldsServer } from "../../helpers/hosted-fields-server";
import { createTestMerchant, createTestSession } from "../../helpers/session-factory";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example:8080";
let server: HostedFieldsServer;
let merchantId: string;

beforeAll(async () => {
  server = await startHostedFieldsServer();
  merchantId = (await createTestMerchant()).id;
});
afterAll(async () => server?.close());

function frameUrl(sessionId: string, frame: string, origin = MERCHANT_ORIGIN): string {
  return `${server.origin}/dynamic/${sessionId}/${frame}?b=${encodeURIComponent(createOriginBinding(sessionId, origin))}`;
}

function directives(response: Response): Map<string, string> {
  const policy = response.headers.get("content-security-policy") ?? "";
  return new Map(
    policy.split(";").map(
      (part) =>
        part
          .trim()
          .split(/\s+(.*)/s)
          .slice(0, 2) as [string, string],
    ),
  );
}

/** A session of a new merchant whose hosted integration has this styling stored (unchecked, as a row can hold it). */
async function styledSession(shop: string, integration: { id: string; hostedId: string; name: string }, styling: Prisma.InputJsonValue) {
  const merchant = await createTestMerchant(shop);
  const hosted = await db().hostedIntegration.create({ data: { ...integration, merchantId: merchant.id, styling } });
  return createTestSession(merchant.id, { hostedIntegrationId: hosted.id });
}

describe("dynamic.js", () => {
  it("carries the session, our origin and a binding to the page origin that loaded it", async () => {
    const session = await createTestSession(merchantId, { idPan: "card-number" });
    const response = await fetch(`${server.origin}/dynamic/${session.id}/dynamic.js`, {
      headers: { referer: `${MERCHANT_ORIGIN}/checkout?order=1` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const script = await response.text();
    const config = JSON.parse(/CPSDynamic\.boot\((\{.*\})\);/s.exec(script)![1]!) as Record<string, unknown>;
    expect(config).toMatchObject({
      sessionid: session.id,
      origin: server.origin,
      binding: createOriginBinding(session.id, MERCHANT_ORIGIN),
      elements: {
        pan: "card-number",
        expmonth: "expmonth",
        expyear: "expyear",
        securitycode: "securitycode",
        ccsingle: "ccsingle",
        challenge: "challenge",
      },
      onBehalf: false,
    });
    expect(config.expiresInMs).toBeGreaterThan(890_000);
    expect(config.closedReason).toBeUndefined();
    // initDynamic and goPay are what the merchant page calls.
    expect(script).toContain("initDynamic");
    expect(script).toContain("goPay");
  });

  it("says why a finished or expired session cannot pay, and answers 404 for an unknown one", async () => {
    const expired = await createTestSession(merchantId, { expiresAt: new Date(Date.now() - 1000) });
    const text = await (await fetch(`${server.origin}/dynamic/${expired.id}/dynamic.js`, { headers: { referer: MERCHANT_ORIGIN } })).text();
    expect(text).toContain("The payment window of this session has closed.");
    const unknown = await fetch(`${server.origin}/dynamic/0123456789abcdef0123456789abcdef/dynamic.js`);
    expect(unknown.status).toBe(404);
  });

  it("without a Referer the frames cannot be bound, and the script says how to fix it", async () => {
    const session = await createTestSession(merchantId);
    const text = await (await fetch(`${server.origin}/dynamic/${session.id}/dynamic.js`)).text();
    expect(text).toContain('referrerpolicy=\\"origin\\"');
    expect(text).toContain('"binding":""');
  });
});

describe("field pages", () => {
  it("a test session's card number field asks for a test card before anyone types; a live one does not", async () => {
    const test = await (await fetch(frameUrl((await createTestSession(merchantId)).id, "pan"))).text();
    expect(test).toContain('placeholder="Test card: 4111 1111 1111 1111"');
    const live = await (await fetch(frameUrl((await createTestSession(merchantId, { mode: "live" })).id, "pan"))).text();
    expect(live).toContain('placeholder="1234 1234 1234 1234"');
    expect(live).toMatch(/<label class="sr" for="\w+">Card number<\/label>/);
    expect(live).not.toContain("Test card:");
  });

  it.each([
    // A test session's card number field asks for a test card (issue 27); a live one: below.
    ["pan", "cc-number", "Card number \\(test mode: test cards only\\)"],
    ["expmonth", "cc-exp-month", "Expiry month"],
    ["expyear", "cc-exp-year", "Expiry year"],
    ["securitycode", "cc-csc", "Security code"],
  ])("%s: a labelled input with autocomplete %s, framed only by the bound merchant origin", async (field, autocomplete, label) => {
    const session = await createTestSession(merchantId);
    const response = await fetch(frameUrl(session.id, field));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`autocomplete="${autocomplete}"`);
    expect(html).toMatch(new RegExp(`<label class="sr" for="\\w+">${label}</label>`));
    expect(html).toContain('inputmode="numeric"');
    expect(html).not.toMatch(/react/i);
    const csp = directives(response);
    expect(csp.get("frame-ancestors")).toBe(MERCHANT_ORIGIN);
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("connect-src")).toBe("'self'");
    expect(csp.get("form-action")).toBe("'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp.get("script-src") ?? "")![1]!;
    // Every script on the page carries the response's nonce; nothing else could run.
    expect(html.match(/<script nonce="([^"]+)">/g)?.every((tag) => tag.includes(nonce))).toBe(true);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("ccsingle has number, expiry and code in one form, so browsers autofill all three", async () => {
    const session = await createTestSession(merchantId);
    const html = await (await fetch(frameUrl(session.id, "ccsingle"))).text();
    const form = /<form[^>]*>(.*)<\/form>/s.exec(html)![1]!;
    expect(form).toContain('autocomplete="cc-number"');
    expect(form).toContain('autocomplete="cc-exp"');
    expect(form).toContain('autocomplete="cc-csc"');
  });

  it("applies the hosted integration's styling inside the frame and allows its web font's origin", async () => {
    const session = await styledSession("Styled shop", { id: "hosted-styled", hostedId: "brand-a", name: "Brand A" }, {
      fontFamily: "Inter, sans-serif",
      color: "#112233",
      errorColor: "rgb(200, 0, 0)",
      fontSize: "18px",
      placeholders: { pan: "Card no." },
      fonts: [{ family: "Inter", src: "https://fonts.example.com/inter.woff2" }],
    });
    const response = await fetch(frameUrl(session.id, "pan"));
    const html = await response.text();
    expect(html).toContain("font-family:Inter, sans-serif");
    expect(html).toContain("color:#112233");
    expect(html).toContain("input.invalid{color:rgb(200, 0, 0)");
    expect(html).toContain("font-size:18px");
    expect(html).toContain('placeholder="Card no."');
    expect(html).toContain('@font-face{font-family:"Inter";src:url("https://fonts.example.com/inter.woff2")');
    expect(directives(response).get("font-src")).toBe("https://fonts.example.com");
  });

  it("ignores stored styling that fails the schema instead of injecting it", async () => {
    const session = await styledSession(
      "Broken styling shop",
      { id: "hosted-broken", hostedId: "x", name: "X" },
      { color: "red;}</style><script>alert(1)</script>" },
    );
    const html = await (await fetch(frameUrl(session.id, "pan"))).text();
    expect(html).not.toContain("alert(1)");
    expect(html).toContain("color:#1f2937");
  });

  it("refuses an unknown session (404), a missing or forged binding (403), an expired (410) and a finished session (410)", async () => {
    const unknown = await fetch(frameUrl("0123456789abcdef0123456789abcdef", "pan"));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain("<input");

    const session = await createTestSession(merchantId);
    expect((await fetch(`${server.origin}/dynamic/${session.id}/pan`)).status).toBe(403);
    const forged = `${Buffer.from("http://evil.example").toString("base64url")}.${createOriginBinding(session.id, MERCHANT_ORIGIN).split(".")[1]}`;
    expect((await fetch(`${server.origin}/dynamic/${session.id}/pan?b=${forged}`)).status).toBe(403);
    const otherSession = await createTestSession(merchantId);
    expect(
      (await fetch(`${server.origin}/dynamic/${session.id}/pan?b=${createOriginBinding(otherSession.id, MERCHANT_ORIGIN)}`)).status,
    ).toBe(403);

    const expired = await createTestSession(merchantId, { expiresAt: new Date(Date.now() - 1) });
    const expiredResponse = await fetch(frameUrl(expired.id, "pan"));
    expect(expiredResponse.status).toBe(410);
    const refusal = await expiredResponse.text();
    expect(refusal).not.toContain("<input");
    // The refusal page tells the merchant page why, through the bound origin only.
    expect(refusal).toContain('"type":"load-error"');
    expect(refusal).toContain(JSON.stringify(MERCHANT_ORIGIN));

    const finished = await createTestSession(merchantId, { status: "COMPLETED" });
    expect((await fetch(frameUrl(finished.id, "securitycode"))).status).toBe(410);
    const timedOut = await createTestSession(merchantId, { status: "TIMED_OUT" });
    expect((await fetch(frameUrl(timedOut.id, "expyear"))).status).toBe(410);
  });
});
