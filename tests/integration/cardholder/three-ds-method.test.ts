// The 3DS Method in the hosted fields (docs/decisions/0115), over real HTTP: our cardholder routes
// against the strict 3DS Server sandbox (lib/sandboxes/threeds/three-ds-server.ts, written from the
// 3dsecure.io reference) on its own origin. The browser's part (our hidden method page posting
// threeDSMethodData to the ACS, the ACS posting its notification back) is played by fetch here and by
// Chromium in tests/e2e/cardholder/three-ds-method.spec.ts. What the 3DS Server received is read from
// the sandbox's onAReq hook.
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { useStrictThreeDsServer } from "@/tests/helpers/strict-three-ds-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useCardholderServices } from "@/tests/helpers/cardholder-services";
import { createTestSession } from "../../helpers/session-factory";
import { formAction, hiddenFields } from "../../helpers/challenge-pages";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);
/** A published test number (Stripe's 4000 0000 00xx xxxx range) whose last four digits ask the strict 3DS Server for a method URL and frictionless Y (sandbox.rst). */
const METHOD_CARD = { pan: "4000000000052003", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };

const strict = useStrictThreeDsServer();
const received = strict.acceptedAReqs;

const services = useCardholderServices({ extensions: true });
beforeEach(() => {
  received.length = 0;
});

const binding = (sessionId: string) => createOriginBinding(sessionId, MERCHANT_ORIGIN);

const post = (path: string, body: unknown) => services.server.postJson(path, body);

type Acquirer = "finaro" | "clearhaus" | "bambora";

async function payUntilMethod(processor: Acquirer = "clearhaus") {
  const created = await createTestSession(services.merchantId, {
    notificationUrl: "http://127.0.0.1:9/notify",
    set3ds: "FORCE_3DS",
    processors: [processor],
    // The test merchant's bambora account is a Bambora North America CAD account.
    currency: processor === "bambora" ? "CAD" : "DKK",
  });
  const paymentId = String((await post(`/dynamic/${created.id}/payments`, {})).paymentid);
  const result = await post(`/dynamic/${created.id}/payments/${paymentId}/authorize`, { card: METHOD_CARD, binding: binding(created.id) });
  const authentication = await db().threeDsAuthentication.findFirst({ where: { paymentId } });
  if (!authentication) throw new Error(JSON.stringify(result));
  return { sessionId: created.id, paymentId, result, authentication };
}

const authorizeAgain = (sessionId: string, paymentId: string) =>
  post(`/dynamic/${sessionId}/payments/${paymentId}/authorize`, { card: METHOD_CARD, binding: binding(sessionId) });


/** Our hidden method page, as the controller frame loads it. */
const methodPage = (sessionId: string, url: string, withBinding = true) =>
  fetch(`${services.server.origin}${url}${withBinding ? `?b=${encodeURIComponent(binding(sessionId))}` : ""}`);

const notify = (url: string, body: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

const methodData = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("the 3DS Method in the hosted fields", () => {
  it.each(["finaro", "clearhaus", "bambora"] as const)(
    "%s: a card range with a method URL: our hidden page posts threeDSMethodData to the ACS, its notification makes the AReq's threeDSCompInd Y",
    async (processor) => {
      const { sessionId, paymentId, result, authentication } = await payUntilMethod(processor);
      expect(result).toEqual({ result: "method", paymentid: paymentId, url: `/dynamic/${sessionId}/payments/${paymentId}/method` });
      expect(authentication).toMatchObject({ state: "method", methodUrl: `${strict.url()}/method`, methodCompletedAt: null });
      expect(received).toHaveLength(0); // no AReq before the method
      expect(await db().operation.count({ where: { paymentId } })).toBe(0);

      const page = await methodPage(sessionId, String(result.url));
      expect(page.status).toBe(200);
      const csp = page.headers.get("content-security-policy")!;
      const acsOrigin = new URL(strict.url()).origin;
      expect(csp).toContain(`frame-src ${acsOrigin} 'self'`);
      expect(csp).toContain(`form-action ${acsOrigin}`);
      expect(csp).toContain(`frame-ancestors 'self' ${MERCHANT_ORIGIN}`);
      const html = await page.text();
      expect(html).not.toContain(METHOD_CARD.pan);
      expect(formAction(html)).toBe(`${strict.url()}/method`);
      const fields = hiddenFields(html);
      // 3dsmethod.rst: base64url without padding, the /preauth id and our notification URL.
      expect(fields.threeDSMethodData).not.toMatch(/=/);
      const notificationUrl = `${services.server.origin}/dynamic/${sessionId}/payments/${paymentId}/method-notify?b=${encodeURIComponent(binding(sessionId))}`;
      expect(JSON.parse(Buffer.from(fields.threeDSMethodData!, "base64url").toString())).toEqual({
        threeDSServerTransID: authentication.threeDsServerTransId,
        threeDSMethodNotificationURL: notificationUrl,
      });

      // The ACS's method page (in the inner frame) posts the notification back to us.
      const acsPage = await (await fetch(formAction(html), { method: "POST", body: new URLSearchParams(fields) })).text();
      expect(formAction(acsPage)).toBe(notificationUrl);
      const notified = await notify(notificationUrl, new URLSearchParams(hiddenFields(acsPage)).toString());
      expect(notified.status).toBe(200);
      expect(notified.headers.get("content-security-policy")).toContain(`frame-ancestors 'self' ${MERCHANT_ORIGIN}`);
      expect(await notified.text()).toContain('"type":"method-notified"');
      expect((await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: authentication.id } })).methodCompletedAt).not.toBeNull();

      // The controller sends the card again: the AReq follows with the /preauth id and threeDSCompInd Y.
      const after = await authorizeAgain(sessionId, paymentId);
      expect(after).toEqual({ result: "approved", paymentid: paymentId });
      const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
      expect(payment).toMatchObject({ status: "AUTHORIZED", eci: "05", sca: "Y", processor });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ threeDSCompInd: "Y", threeDSServerTransID: authentication.threeDsServerTransId });
      const row = await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: authentication.id } });
      expect(row).toMatchObject({ state: "completed", transStatus: "Y" });
      expect(await db().threeDsAuthentication.count({ where: { paymentId } })).toBe(1);
    },
  );

  it("a method whose notification never comes (the controller gives up after 10 s): the AReq says threeDSCompInd N, and the 3DS Server accepts it", async () => {
    const { sessionId, paymentId, authentication } = await payUntilMethod();
    const after = await authorizeAgain(sessionId, paymentId);
    expect(after).toEqual({ result: "approved", paymentid: paymentId });
    expect(received).toEqual([expect.objectContaining({ threeDSCompInd: "N", threeDSServerTransID: authentication.threeDsServerTransId })]);
    expect(await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: authentication.id } })).toMatchObject({
      state: "completed",
      transStatus: "Y",
      methodCompletedAt: null,
    });
  });

  it("a notification for another payment's transaction, an unknown one, or malformed data is refused and changes nothing", async () => {
    const first = await payUntilMethod();
    const other = await payUntilMethod();
    const notifyUrl = (sessionId: string, paymentId: string) => `${services.server.origin}/dynamic/${sessionId}/payments/${paymentId}/method-notify`;
    const url = notifyUrl(first.sessionId, first.paymentId);
    const attempts = [
      methodData({ threeDSServerTransID: other.authentication.threeDsServerTransId }),
      methodData({ threeDSServerTransID: "0d4f6a4e-7f00-4a8f-9f6b-1b2c3d4e5f60" }),
      methodData({ threeDSServerTransID: "not-a-uuid" }),
      "%%%not-base64",
      "",
    ];
    for (const data of attempts) {
      const refused = await notify(url, new URLSearchParams({ threeDSMethodData: data }).toString());
      expect(refused.status).toBe(400);
    }
    // The right id on another session's address: refused too.
    const crossed = await notify(
      notifyUrl(other.sessionId, first.paymentId),
      new URLSearchParams({
        threeDSMethodData: methodData({ threeDSServerTransID: first.authentication.threeDsServerTransId }),
      }).toString(),
    );
    expect(crossed.status).toBe(400);
    const tooLarge = await notify(url, `threeDSMethodData=${"a".repeat(20_000)}`);
    expect(tooLarge.status).toBe(413);
    for (const { authentication } of [first, other])
      expect((await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: authentication.id } })).methodCompletedAt).toBeNull();
    // Padded base64url is read as well (3dsmethod.rst: "both padded and unpadded").
    const padded = Buffer.from(JSON.stringify({ threeDSServerTransID: other.authentication.threeDsServerTransId })).toString("base64");
    const accepted = await notify(
      notifyUrl(other.sessionId, other.paymentId),
      new URLSearchParams({ threeDSMethodData: padded.replace(/\+/g, "-").replace(/\//g, "_") }).toString(),
    );
    expect(accepted.status).toBe(200);
    await authorizeAgain(first.sessionId, first.paymentId);
    expect(received.at(-1)).toMatchObject({ threeDSCompInd: "N", threeDSServerTransID: first.authentication.threeDsServerTransId });
  });

  it("the method page exists only for a payment waiting on its method, and only inside the bound merchant page", async () => {
    const { sessionId, paymentId, result } = await payUntilMethod();
    expect((await methodPage(sessionId, String(result.url), false)).status).toBe(403);
    await authorizeAgain(sessionId, paymentId);
    // Once the AReq went (and here the payment was approved, the window closed), the page is gone.
    const after = await methodPage(sessionId, String(result.url));
    expect([404, 410]).toContain(after.status);
    expect(await after.text()).not.toContain("threeDSMethodData");
  });

  it("the controller frame may frame only our own pages (the method page), nothing else", async () => {
    const created = await createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify" });
    const page = await fetch(`${services.server.origin}/dynamic/${created.id}/controller?b=${encodeURIComponent(binding(created.id))}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-src 'self';");
    expect(csp).toContain("form-action 'none'");
  });
});
