// goPay() on the server, over real HTTP against the acquirer and 3-D Secure sandboxes: the payment
// opened without card data, the one authorize request with the card, the missing-field codes,
// declines and retries, processor fallback, every set3ds mode with real challenges through the
// sandbox ACS, instant capture, amount 0, payments on behalf, the window time-out and the
// completion notification stored for delivery.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { completionNotificationId } from "@/lib/notifications/send-completion-notification";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { SANDBOX_CHALLENGE_CODE } from "@/lib/sandboxes/threeds/directory-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useCardholderServices } from "@/tests/helpers/cardholder-services";
import { createTestSession, type SessionOverrides } from "../../helpers/session-factory";
import { quietFor } from "@/tests/helpers/eventually";
import { formAction, hiddenFields } from "@/tests/helpers/challenge-pages";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);
const VISA = { pan: "4111111111111111", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };
const card = (pan: string) => ({ ...VISA, pan });


const services = useCardholderServices({ hangMs: 3000, extensions: true });

async function post(path: string, body: unknown, origin = services.server.origin): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${services.server.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The test merchant's bambora account is a Bambora North America CAD account; the others take any currency. */
const currencyAt = (processor: "finaro" | "clearhaus" | "bambora") => (processor === "bambora" ? "CAD" : "DKK");

function session(overrides: SessionOverrides = {}) {
  return createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify", merchantData: "b3JkZXI9NDI=", ...overrides });
}

async function start(sessionId: string): Promise<string> {
  const started = await post(`/dynamic/${sessionId}/payments`, {});
  expect(started.body.result).toBe("started");
  return String(started.body.paymentid);
}

async function authorize(sessionId: string, paymentId: string, cardParts: Record<string, string> | undefined) {
  const binding = createOriginBinding(sessionId, MERCHANT_ORIGIN);
  return (await post(`/dynamic/${sessionId}/payments/${paymentId}/authorize`, { card: cardParts, binding })).body;
}

async function pay(sessionId: string, cardParts: Record<string, string> | undefined = VISA) {
  const paymentId = await start(sessionId);
  return { paymentId, result: await authorize(sessionId, paymentId, cardParts) };
}

/** What a cardholder does in the challenge frame: our page posts the CReq to the ACS, the person acts, the ACS posts the CRes to us. */
async function challenge(sessionId: string, url: string, action: "complete" | "fail" | "cancel"): Promise<string> {
  const page = await fetch(`${services.server.origin}${url}&b=${encodeURIComponent(createOriginBinding(sessionId, MERCHANT_ORIGIN))}`);
  expect(page.status).toBe(200);
  const ours = await page.text();
  const acsUrl = formAction(ours, "acs-form");
  expect(page.headers.get("content-security-policy")).toContain(`frame-src ${new URL(acsUrl).origin} 'self'`);
  const acsPage = await (await fetch(acsUrl, { method: "POST", body: new URLSearchParams(hiddenFields(ours)) })).text();
  const submitUrl = new URL(formAction(acsPage), acsUrl).toString();
  const afterChallenge = await (
    await fetch(submitUrl, {
      method: "POST",
      body: new URLSearchParams({ ...hiddenFields(acsPage), code: SANDBOX_CHALLENGE_CODE, action }),
    })
  ).text();
  const notifyUrl = formAction(afterChallenge, "cres");
  expect(notifyUrl.startsWith(`${services.server.origin}/dynamic/${sessionId}/payments/`)).toBe(true);
  const notify = await fetch(notifyUrl, { method: "POST", body: new URLSearchParams(hiddenFields(afterChallenge)) });
  const html = await notify.text();
  expect(notify.headers.get("content-security-policy")).toContain(`frame-ancestors 'self' ${MERCHANT_ORIGIN}`);
  return /"outcome":"(\w+)"/.exec(html)![1]!;
}

async function completionBody(sessionId: string): Promise<Record<string, unknown> | undefined> {
  const notification = await db().notification.findUnique({ where: { id: completionNotificationId(sessionId) } });
  return notification ? (JSON.parse(notification.body) as Record<string, unknown>) : undefined;
}

describe("cardholder payment without 3-D Secure (SKIP_3DS)", () => {
  it("approves, completes the session and stores the completion notification of spec 6.2 field by field", async () => {
    const created = await session({ merchantPaymentId: "order1001", textOnStatement: "SHOP 42" });
    const { paymentId, result } = await pay(created.id);
    expect(result).toEqual({ result: "approved", paymentid: paymentId });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, include: { storedCard: true, operations: true } });
    expect(payment.status).toBe("AUTHORIZED");
    expect(payment.merchantPaymentId).toBe("order1001");
    expect(payment.textOnStatement).toBe("SHOP 42");
    expect(payment.storedCard?.last4).toBe("1111");
    // The number is stored encrypted only.
    expect(JSON.stringify(payment, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value))).not.toContain(
      "4111111111111111",
    );
    const stored = await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.status).toBe("COMPLETED");
    expect(stored.paymentId).toBe(paymentId);
    const body = await completionBody(created.id);
    expect(body).toEqual({
      sessionid: created.id,
      paymentid: paymentId,
      merchantpaymentid: "order1001",
      newmerchantpaymentid: "",
      status: "approved",
      responsecode: "00",
      authorizationcode: expect.stringMatching(/^\d{1,8}$/),
      processor: "finaro",
      tcardnumber: "411111xxxxxx1111",
      eci: expect.anything(),
      merchantdata: "b3JkZXI9NDI=",
      par: expect.stringMatching(/^[A-Za-z0-9]{29}$/),
      mode: "test",
    });
    // A second goPay() on a completed session does not pay twice.
    expect((await post(`/dynamic/${created.id}/payments`, {})).body).toMatchObject({ result: "failed", errorcode: "PAYMENT_ERROR" });
  });

  it.each([
    [{ expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" }, "PAN_MISSING"],
    [{ pan: VISA.pan, expyear: NEXT_YEAR, securitycode: "123" }, "EXPMONTH_MISSING"],
    [{ pan: VISA.pan, expmonth: "12", securitycode: "123" }, "EXPYEAR_MISSING"],
    [{ pan: VISA.pan, expmonth: "12", expyear: NEXT_YEAR }, "CVC_MISSING"],
    [{}, "PAN_MISSING"],
    [{ ...VISA, pan: "4111111111111112" }, "PAN_INVALID"],
    [{ ...VISA, expyear: "2020" }, "EXPIRY_INVALID"],
    [{ ...VISA, expmonth: "13" }, "EXPIRY_INVALID"],
    [{ ...VISA, securitycode: "12" }, "CVC_INVALID"],
  ])("refuses %j with %s before anything reaches a processor", async (parts, errorcode) => {
    const created = await session();
    const { paymentId, result } = await pay(created.id, parts as Record<string, string>);
    expect(result).toMatchObject({ result: "failed", paymentid: paymentId, errorcode, errortext: expect.stringMatching(/^[A-Z].+\.$/) });
    expect(await db().operation.count({ where: { paymentId } })).toBe(0);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
  });

  it("reports a decline, keeps the window open, and a second attempt with another card pays the same payment", async () => {
    const created = await session();
    const declined = await pay(created.id, card("4000000000000002"));
    expect(declined.result).toMatchObject({ result: "failed", errorcode: "PAYMENT_DECLINED", errortext: "The payment was declined." });
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
    expect(await completionBody(created.id)).toBeUndefined();
    const retried = await pay(created.id, VISA);
    expect(retried.paymentId).toBe(declined.paymentId);
    expect(retried.result).toEqual({ result: "approved", paymentid: declined.paymentId });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: declined.paymentId }, include: { storedCard: true } });
    expect(payment.storedCard?.last4).toBe("1111");
    expect(await db().storedCard.count({ where: { last4: "0002", merchantId: services.merchantId } })).toBe(0);
    expect((await completionBody(created.id))?.tcardnumber).toBe("411111xxxxxx1111");
  });

  it("falls back to the next processor when the first declines", async () => {
    const created = await session({ processors: ["finaro", "clearhaus"] });
    const { paymentId, result } = await pay(created.id, card("4000000000001000"));
    expect(result.result).toBe("approved");
    const operations = await db().operation.findMany({ where: { paymentId, type: "authorize" }, orderBy: { routingAttempt: "asc" } });
    expect(operations.map((operation) => [operation.processor, operation.status])).toEqual([
      ["finaro", "declined"],
      ["clearhaus", "approved"],
    ]);
    expect((await completionBody(created.id))?.processor).toBe("clearhaus");
  });

  it("instantcapture 1 captures the whole amount at once", async () => {
    const created = await session({ instantCapture: 1 });
    const { paymentId, result } = await pay(created.id);
    expect(result.result).toBe("approved");
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.status).toBe("CAPTURED");
    expect(payment.capturedAmount).toBe(12500n);
  });

  it("amount 0 stores a token and moves no money", async () => {
    const created = await session({ amount: 0n });
    const { paymentId, result } = await pay(created.id);
    expect(result.result).toBe("approved");
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.status).toBe("TOKENIZED");
    expect(payment.storedCardId).not.toBeNull();
    expect((await completionBody(created.id))?.status).toBe("approved");
  });

  it("pays on behalf of a stored payment without card data, with newmerchantpaymentid as the new reference", async () => {
    // In CAD, so at Bambora North America: it takes a later cardholder payment with the stored card
    // and no security code (subsequent_customer_initiated, its series id). Finaro's reference wants
    // the security code on every cardholder-initiated payment (b5), and Clearhaus one without a signing
    // partner (issue 24), so a DKK payment without card data finds no acquirer there.
    const first = await session({ merchantPaymentId: "sub-1", currency: "CAD" });
    const parent = await pay(first.id);
    const onBehalf = await session({
      onBehalfOfPaymentId: parent.paymentId,
      newMerchantPaymentId: "sub-2",
      merchantPaymentId: "sub-1",
      currency: "CAD",
    });
    const { paymentId, result } = await pay(onBehalf.id, undefined);
    expect(result).toEqual({ result: "approved", paymentid: paymentId });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.parentPaymentId).toBe(parent.paymentId);
    expect(payment.merchantPaymentId).toBe("sub-2");
    const parentCard = (await db().payment.findUniqueOrThrow({ where: { id: parent.paymentId } })).storedCardId;
    expect(payment.storedCardId).toBe(parentCard);
    expect(await completionBody(onBehalf.id)).toMatchObject({
      merchantpaymentid: "sub-1",
      newmerchantpaymentid: "sub-2",
      tcardnumber: "411111xxxxxx1111",
    });
  });
});

// Test card 4000000000000341: every sandbox approves its authorization and declines its capture (05).
describe("instantcapture when the capture is declined (test card 4000000000000341)", () => {
  const CAPTURE_DECLINED = card("4000000000000341");
  const TYPE_ORDER = ["authorize", "capture", "void", "refund"];

  async function operationsOf(paymentId: string) {
    const operations = await db().operation.findMany({ where: { paymentId } });
    return operations
      .sort((a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type))
      .map((operation) => ({
        type: operation.type,
        status: operation.status,
        processor: operation.processor,
        amount: operation.amount,
        responseCode: operation.responseCode,
        note: operation.note,
      }));
  }

  /** How each acquirer declines a capture: Clearhaus' captures answer a rule violation (40200), never an issuer's code. */
  function declinedCapture(processor: "finaro" | "clearhaus" | "bambora") {
    return processor === "clearhaus" ? { status: "failed", responseCode: "12" } : { status: "declined", responseCode: "05" };
  }

  async function sandboxAuthorization(paymentId: string, processor: "finaro" | "clearhaus" | "bambora") {
    const authorization = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize", status: "approved" } });
    return services.sandboxes.ledgers[processor]!.byId(authorization.processorReference!)!;
  }

  it.each(["finaro", "clearhaus", "bambora"] as const)(
    "instantcapture 1 at %s: the capture is declined, the authorization voided, the cardholder told PAYMENT_ERROR, the window completed with the capture's code",
    async (processor) => {
      const created = await session({ instantCapture: 1, processors: [processor], currency: currencyAt(processor) });
      const { paymentId, result } = await pay(created.id, CAPTURE_DECLINED);
      expect(result).toEqual({
        result: "failed",
        paymentid: paymentId,
        errorcode: "PAYMENT_ERROR",
        errortext: "The payment could not be completed because of a technical error.",
      });
      const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
      expect(payment.status).toBe("VOIDED");
      expect(payment.processor).toBe(processor);
      expect(payment.capturedAmount).toBe(0n);
      expect(payment.balance).toBe(0n);
      expect(await operationsOf(paymentId)).toEqual([
        { type: "authorize", status: "approved", processor, amount: 12500n, responseCode: "00", note: null },
        { type: "capture", ...declinedCapture(processor), processor, amount: 12500n, note: "instantcapture" },
        { type: "void", status: "approved", processor, amount: 12500n, responseCode: "00", note: "instantcapture" },
      ]);
      const atAcquirer = await sandboxAuthorization(paymentId, processor);
      expect(atAcquirer.voided).toBe(true);
      expect(atAcquirer.capturedAmount).toBe(0);
      // The payment is over (decision 0156): the window ends with its completion, not approved, with
      // the capture's status and code and no authorization code; our void is not notified.
      expect(await completionBody(created.id)).toMatchObject({ status: declinedCapture(processor).status, responsecode: declinedCapture(processor).responseCode, authorizationcode: "" });
      expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("COMPLETED");
      expect(await db().notification.count({ where: { paymentId, kind: "void" } })).toBe(0);
    },
  );

  it("instantcapture 1, FORCE_3DS: the frictionless authentication, the authorization, the declined capture, the void", async () => {
    const created = await session({ instantCapture: 1, set3ds: "FORCE_3DS" });
    const { paymentId, result } = await pay(created.id, CAPTURE_DECLINED);
    expect(result).toMatchObject({ result: "failed", paymentid: paymentId, errorcode: "PAYMENT_ERROR" });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("VOIDED");
    expect((await operationsOf(paymentId)).map((operation) => [operation.type, operation.status])).toEqual([
      ["authorize", "approved"],
      ["capture", "declined"],
      ["void", "approved"],
    ]);
    const authorization = await db().operation.findFirstOrThrow({ where: { paymentId, type: "authorize" } });
    expect(authorization.eci).toBeTruthy();
  });

  it("instantcapture 1: another goPay() in the completed window does not turn the voided payment into an approval", async () => {
    const created = await session({ instantCapture: 1 });
    const first = await pay(created.id, CAPTURE_DECLINED);
    expect(first.result).toMatchObject({ result: "failed", errorcode: "PAYMENT_ERROR" });
    // goPay() with another card: opening the next attempt is refused ...
    expect((await post(`/dynamic/${created.id}/payments`, {})).body).toMatchObject({ result: "failed", errorcode: "PAYMENT_ERROR" });
    // ... and an authorize request sent for the payment all the same is refused too.
    expect(await authorize(created.id, first.paymentId, VISA)).toMatchObject({
      result: "failed",
      paymentid: first.paymentId,
      errorcode: "PAYMENT_ERROR",
    });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: first.paymentId } });
    expect(payment.status).toBe("VOIDED");
    expect(payment.capturedAmount).toBe(0n);
    // No second capture or void was sent for the voided authorization.
    expect((await operationsOf(first.paymentId)).map((operation) => [operation.type, operation.status])).toEqual([
      ["authorize", "approved"],
      ["capture", "declined"],
      ["void", "approved"],
    ]);
    expect(await completionBody(created.id)).toMatchObject({ status: "declined", responsecode: "05" });
  });

  it.each(["finaro", "clearhaus", "bambora"] as const)(
    "instantcapture 2 at %s: the capture is declined, the authorization is kept and the cardholder's payment approved",
    async (processor) => {
      const created = await session({ instantCapture: 2, processors: [processor], currency: currencyAt(processor) });
      const { paymentId, result } = await pay(created.id, CAPTURE_DECLINED);
      expect(result).toEqual({ result: "approved", paymentid: paymentId });
      const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
      expect(payment.status).toBe("AUTHORIZED");
      expect(payment.processor).toBe(processor);
      expect(payment.authorizedAmount).toBe(12500n);
      expect(payment.capturedAmount).toBe(0n);
      expect(await operationsOf(paymentId)).toEqual([
        { type: "authorize", status: "approved", processor, amount: 12500n, responseCode: "00", note: null },
        { type: "capture", ...declinedCapture(processor), processor, amount: 12500n, note: "instantcapture" },
      ]);
      const atAcquirer = await sandboxAuthorization(paymentId, processor);
      expect(atAcquirer.voided).toBe(false);
      expect(atAcquirer.capturedAmount).toBe(0);
      expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("COMPLETED");
      expect(await completionBody(created.id)).toMatchObject({ paymentid: paymentId, status: "approved", processor });
    },
  );
});

describe("3-D Secure", () => {
  it("FORCE_3DS, frictionless: authorizes with the authentication's ECI", async () => {
    const created = await session({ set3ds: "FORCE_3DS" });
    const { paymentId, result } = await pay(created.id);
    expect(result.result).toBe("approved");
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.sca).toBe("Y");
    expect(payment.eci).toBe("05");
    expect((await completionBody(created.id))?.eci).toBe(5);
  });

  it("FORCE_3DS, challenge completed: the challenge page, the ACS, our notification page, then the authorization", async () => {
    const created = await session({ set3ds: "FORCE_3DS" });
    const { paymentId, result } = await pay(created.id, card("4000000000003006"));
    expect(result).toMatchObject({
      result: "challenge",
      paymentid: paymentId,
      url: expect.stringMatching(new RegExp(`^/dynamic/${created.id}/payments/${paymentId}/challenge\\?`)),
    });
    // During the challenge the window is open (its time-out still applies) and nothing is authorized.
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
    expect(await db().operation.count({ where: { paymentId } })).toBe(0);
    expect(await challenge(created.id, String(result.url), "complete")).toBe("completed");
    const authorized = await authorize(created.id, paymentId, card("4000000000003006"));
    expect(authorized).toEqual({ result: "approved", paymentid: paymentId });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.eci).toBe("05");
    expect(payment.sca).toBe("Y");
  });

  it("the challenge page posts only to the ACS the directory server named: a changed address is refused", async () => {
    const created = await session({ set3ds: "FORCE_3DS" });
    const { result } = await pay(created.id, card("4000000000003220"));
    const url = new URL(String(result.url), services.server.origin);
    url.searchParams.set("acs", "https://phishing.example/acs");
    url.searchParams.set("b", createOriginBinding(created.id, MERCHANT_ORIGIN));
    const tampered = await fetch(url);
    expect(tampered.status).toBe(404);
    expect(await tampered.text()).not.toContain("phishing.example");
  });

  it("FORCE_3DS, challenge failed: no authorization, AUTHENTICATION_FAILED", async () => {
    const created = await session({ set3ds: "FORCE_3DS" });
    const { paymentId, result } = await pay(created.id, card("4000000000003220"));
    expect(result.result).toBe("challenge");
    expect(await challenge(created.id, String(result.url), "fail")).toBe("failed");
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("FAILED");
    // Sent again after a failed challenge, the card starts a new authentication rather than authorizing.
    const again = await authorize(created.id, paymentId, card("4000000000003220"));
    expect(again.result).not.toBe("approved");
    expect(await db().operation.count({ where: { paymentId, type: "authorize" } })).toBe(0);
  });

  it("FORCE_3DS, challenge cancelled at the ACS or with our Cancel button: aborted, the window stays open", async () => {
    const created = await session({ set3ds: "FORCE_3DS" });
    const first = await pay(created.id, card("4000000000003220"));
    expect(await challenge(created.id, String(first.result.url), "cancel")).toBe("aborted");

    const second = await pay(created.id, card("4000000000003220"));
    expect(second.paymentId).toBe(first.paymentId);
    expect(second.result.result).toBe("challenge");
    const aborted = await post(`/dynamic/${created.id}/payments/${second.paymentId}/abort-challenge`, {});
    expect(aborted.body).toEqual({ aborted: true });
    const authentication = await db().threeDsAuthentication.findFirst({
      where: { paymentId: second.paymentId },
      orderBy: { createdAt: "desc" },
    });
    expect(authentication?.state).toBe("aborted");
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
    expect(await db().operation.count({ where: { paymentId: second.paymentId } })).toBe(0);
  });

  it("an authentication is used only at the acquirer account its AReq named: after a decline there, the next account is authenticated anew", async () => {
    // The first AReq carried finaro's acquirer BIN and merchant id; clearhaus gets one of its own (decision 0192).
    const created = await session({ set3ds: "FORCE_3DS", processors: ["finaro", "clearhaus"] });
    const { paymentId, result } = await pay(created.id, card("4000000000001000"));
    expect(result).toEqual({ result: "approved", paymentid: paymentId });
    const operations = await db().operation.findMany({ where: { paymentId, type: "authorize" }, orderBy: { routingAttempt: "asc" } });
    expect(operations.map((operation) => [operation.processor, operation.status])).toEqual([
      ["finaro", "declined"],
      ["clearhaus", "approved"],
    ]);
    const authentications = await db().threeDsAuthentication.findMany({ where: { paymentId }, orderBy: { createdAt: "asc" } });
    expect(authentications.map((row) => [row.acquirerAccountId, row.reason])).toEqual([
      [operations[0]!.acquirerAccountId, null],
      [operations[1]!.acquirerAccountId, "routing"],
    ]);
    expect(operations.map((operation) => operation.authenticationId)).toEqual(authentications.map((row) => row.id));
  });

  it("FORCE_3DS, declined-hard at finaro (54, expired): nothing else is tried and no second authentication is made", async () => {
    const created = await session({ set3ds: "FORCE_3DS", processors: ["finaro", "clearhaus"] });
    const { paymentId, result } = await pay(created.id, card("4000000000000069"));
    expect(result).toMatchObject({ result: "failed", errorcode: "PAYMENT_DECLINED" });
    const operations = await db().operation.findMany({ where: { paymentId, type: "authorize" } });
    expect(operations.map((operation) => [operation.processor, operation.declineClass])).toEqual([["finaro", "declined-hard"]]);
    expect(await db().threeDsAuthentication.count({ where: { paymentId } })).toBe(1);
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).routingStopped).toMatch(
      /^routing stopped: finaro declined for good \(declined-hard, 54.*clearhaus was not tried$/,
    );
  });

  it("FALLBACK_3DS: a card the issuer would challenge is first authorized without 3-D Secure", async () => {
    const created = await session({ set3ds: "FALLBACK_3DS" });
    const { paymentId, result } = await pay(created.id, card("4000000000003220"));
    expect(result).toEqual({ result: "approved", paymentid: paymentId });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).sca).toBeNull();
  });

  it("FALLBACK_3DS: authentication-required without 3-D Secure stops the routing, the challenge runs, and the same account approves", async () => {
    const created = await session({ set3ds: "FALLBACK_3DS", processors: ["finaro", "clearhaus"] });
    const { paymentId, result } = await pay(created.id, card("4000000000003006"));
    expect(result.result).toBe("challenge");
    // Not routed on to clearhaus: finaro's issuer asked for authentication, so the step-up is at finaro.
    const attempts = await db().operation.findMany({ where: { paymentId, type: "authorize" } });
    expect(attempts.map((operation) => [operation.processor, operation.status, operation.responseCode, operation.declineClass])).toEqual([
      ["finaro", "declined", "1A", "authentication-required"],
    ]);
    expect(await challenge(created.id, String(result.url), "complete")).toBe("completed");
    expect(await authorize(created.id, paymentId, card("4000000000003006"))).toEqual({ result: "approved", paymentid: paymentId });
    const after = await db().operation.findMany({ where: { paymentId, type: "authorize" }, orderBy: { routingAttempt: "asc" } });
    expect(after.map((operation) => [operation.processor, operation.status])).toEqual([
      ["finaro", "declined"],
      ["finaro", "approved"],
    ]);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "AUTHORIZED", processor: "finaro", sca: "Y" });
  });

  it("FALLBACK_3DS: a plain decline without 3-D Secure is not challenged (the issuer did not ask for authentication)", async () => {
    // 4000000000060170: the issuer would challenge; finaro declines it 05 (declined-soft).
    const created = await session({ set3ds: "FALLBACK_3DS", processors: ["finaro"] });
    const { paymentId, result } = await pay(created.id, card("4000000000060170"));
    expect(result).toMatchObject({ result: "failed", errorcode: "PAYMENT_DECLINED" });
    const attempts = await db().operation.findMany({ where: { paymentId, type: "authorize" } });
    expect(attempts.map((operation) => [operation.processor, operation.declineClass])).toEqual([["finaro", "declined-soft"]]);
    expect((await db().threeDsAuthentication.findFirstOrThrow({ where: { paymentId } })).state).toBe("challenge");
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
  });
});

describe("the window and the endpoints' guards", () => {
  it("an expired window answers timeout to goPay()", async () => {
    const created = await session({ expiresAt: new Date(Date.now() - 1) });
    const started = await post(`/dynamic/${created.id}/payments`, {});
    expect(started.body).toMatchObject({ result: "failed", errorcode: "PAYMENT_TIMEOUT", errortext: "The payment window has timed out." });
  });

  it("the window closing while the challenge runs: the authorization after it answers timeout", async () => {
    const created = await session({ set3ds: "FORCE_3DS" });
    const { paymentId, result } = await pay(created.id, card("4000000000003006"));
    expect(result.result).toBe("challenge");
    await db().paymentSession.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await authorize(created.id, paymentId, card("4000000000003006"))).toEqual({ result: "timeout", paymentid: paymentId });
    expect(await db().operation.count({ where: { paymentId } })).toBe(0);
  });

  it("only our own frames may call the payment endpoints", async () => {
    const created = await session();
    expect((await post(`/dynamic/${created.id}/payments`, {}, "http://evil.example")).status).toBe(403);
    const paymentId = await start(created.id);
    const response = await fetch(`${services.server.origin}/dynamic/${created.id}/payments/${paymentId}/authorize`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: services.server.origin },
      body: JSON.stringify({ card: VISA }),
    });
    expect(response.status).toBe(403);
    expect(await db().operation.count({ where: { paymentId } })).toBe(0);
  });

  it("two authorize requests at once: the second is told a payment is in progress and reaches no processor", async () => {
    const created = await session({ processors: ["finaro", "clearhaus"] });
    const paymentId = await start(created.id);
    // This card makes every processor hang (3 s in these sandboxes): the first request is still running.
    const slow = authorize(created.id, paymentId, card("4000000000000119"));
    await quietFor(300, "the first request is at the hanging processors");
    expect(await authorize(created.id, paymentId, VISA)).toMatchObject({ result: "failed", errorcode: "PAYMENT_IN_PROGRESS" });
    // Processors that do not answer: a technical failure, never a decline; the window stays open.
    expect(await slow).toMatchObject({ result: "failed", paymentid: paymentId, errorcode: "PAYMENT_ERROR" });
    // In the order they were tried (without an order, PostgreSQL may return the rows in any).
    const operations = await db().operation.findMany({
      where: { paymentId, type: "authorize" },
      select: { processor: true, status: true },
      orderBy: { routingAttempt: "asc" },
    });
    expect(operations.map((operation) => operation.processor)).toEqual(["finaro", "clearhaus"]);
    expect(operations.every((operation) => operation.status !== "approved")).toBe(true);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
  });

  it("card testing: after a dozen processor calls and authentications a window takes no more cards", async () => {
    // CAD: the currency all three of the merchant's accounts take (its bambora account is a Bambora North America CAD account).
    const created = await session({ processors: ["finaro", "clearhaus", "bambora"], currency: "CAD" });
    const paymentId = await start(created.id);
    // Each try of a card declined everywhere costs three processor calls.
    for (let attempt = 0; attempt < 4; attempt++) {
      expect(await authorize(created.id, paymentId, card("4000000000000002"))).toMatchObject({ errorcode: "PAYMENT_DECLINED" });
      await start(created.id);
    }
    expect(await authorize(created.id, paymentId, VISA)).toMatchObject({
      result: "failed",
      errorcode: "TOO_MANY_ATTEMPTS",
      errortext: "Too many payment attempts in this payment window.",
    });
    expect(await db().operation.count({ where: { paymentId, type: "authorize" } })).toBe(12);
  });

  it("a payment id that is not the session's is refused", async () => {
    const one = await session();
    const other = await session();
    const otherPayment = await start(other.id);
    await start(one.id);
    expect(await authorize(one.id, otherPayment, VISA)).toMatchObject({ result: "failed", errorcode: "PAYMENT_ERROR" });
  });
});
