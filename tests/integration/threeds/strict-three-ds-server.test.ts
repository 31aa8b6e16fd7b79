// Our 3-D Secure client (lib/threeds: /preauth, the browser AReq, /postauth) against the strict 3DS
// Server sandbox written from the 3dsecure.io reference, over real HTTP with a real database: every
// reference test card is accepted, and each outcome reaches the authentication row.
import { beforeAll, describe, expect, it } from "vitest";
import { DESKTOP_BROWSER, useStrictThreeDsServer } from "@/tests/helpers/strict-three-ds-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { db } from "@/lib/db";
import { NOT_ENROLLED_PAN } from "@/lib/sandboxes/threeds/three-ds-server";
import { completeAuthentication } from "@/lib/threeds/complete-authentication";
import type { CardholderBrowser } from "@/lib/threeds/browser-areq";
import { startAuthentication } from "@/lib/threeds/start-authentication";
import { createPendingPayment, createProcessorTestMerchant, testCard } from "../../helpers/payment-factories";

useTestDatabase();

const NOTIFICATION_URL = "https://pay.example/dynamic/s1/payments/p1/challenge-notify";
const BROWSER = DESKTOP_BROWSER;
const strict = useStrictThreeDsServer();
let merchantId: string;

beforeAll(async () => {
  merchantId = await createProcessorTestMerchant();
});

async function start(pan: string, browser: CardholderBrowser = BROWSER, currency?: { currency: string; amount: bigint }) {
  const paymentId = await createPendingPayment(merchantId, currency ?? {});
  const started = await startAuthentication({ paymentId, card: testCard(pan), notificationUrl: NOTIFICATION_URL, browser });
  const row = await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: started.authenticationId } });
  return { paymentId, started, row };
}

describe("our client against the strict 3DS Server sandbox", () => {
  it.each([
    ["frictionless Y, with a 3DS Method URL (threeDSCompInd N: the method is not run)", "4000100511112003", "Y"],
    ["frictionless Y, Mastercard", "5100100511112003", "Y"],
    ["frictionless Y, no 3DS Method (threeDSCompInd U)", "4000100511112103", "Y"],
    ["frictionless Y, method that never answers", "4000100511112203", "Y"],
    ["frictionless Y, ACS speaking 2.1.0 only", "4000100511111003", "Y"],
    ["attempted A", "4000100511112023", "A"],
  ])("is accepted and authenticated: %s", async (_name, pan, status) => {
    const { started, row } = await start(pan);
    expect(started).toMatchObject({ kind: "authenticated", threeDs: { transStatus: status, messageType: "ARes" } });
    expect(row).toMatchObject({ state: "completed", transStatus: status, threeDsServerTransId: started.threeDsServerTransId });
    expect(row.messageVersion).toBe(pan.endsWith("1003") ? "2.1.0" : "2.2.0");
    // The ARes is kept whole (for Clearhaus), without card data.
    expect(row.resultMessage).toMatchObject({ messageType: "ARes", transStatus: status, dsTransID: expect.any(String) });
    expect(JSON.stringify(row.resultMessage)).not.toContain(pan);
    if (started.kind === "authenticated") expect(JSON.parse(started.threeDs.message!)).toEqual(row.resultMessage);
  });

  it.each([
    ["not authenticated N", "4000100511112013", "N"],
    ["rejected R", "4000100511112033", "R"],
    ["unavailable U", "4000100511112053", "U"],
    ["informational I", "4000100511112043", "I"],
  ])("is accepted and not authenticated: %s", async (_name, pan, status) => {
    const { started, row } = await start(pan);
    expect(started).toMatchObject({ kind: "not_authenticated", transStatus: status });
    expect(row).toMatchObject({ state: "failed", transStatus: status });
  });

  it.each([
    ["KWD", 12_341n],
    ["BHD", 1_001n],
    ["CLP", 5_000n],
    ["HUF", 120_000n],
  ])("authenticates a payment in %s, as in every ISO 4217 currency (its numeric code and exponent in the AReq)", async (currency, amount) => {
    const { started, row } = await start("4000100511112003", BROWSER, { currency, amount });
    expect(started).toMatchObject({ kind: "authenticated", threeDs: { transStatus: "Y" } });
    expect(row).toMatchObject({ state: "completed", transStatus: "Y" });
  });

  it("is accepted without the frame's facts (no JavaScript): the language comes from Accept-Language", async () => {
    const { started } = await start("4000100511112003", { ...BROWSER, info: undefined });
    expect(started.kind).toBe("authenticated");
  });

  it("runs a challenge: ARes C, no RReq before the end (Erro 305, nothing changes), the RReq after it", async () => {
    const { paymentId, started } = await start("4000100511112072");
    expect(started.kind).toBe("challenge");
    if (started.kind !== "challenge") return;
    const early = await completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId, paymentId });
    expect(early).toMatchObject({ kind: "no_result" });
    if (early.kind === "no_result") expect(early.reason).toMatch(/Erro 305 No RReq has been received/);
    expect(await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: started.authenticationId } })).toMatchObject({
      state: "challenge",
    });
    // The ACS page, as the cardholder's browser posts the CReq to it; this card's challenge passes by itself.
    const auto = await start("4000100511112070");
    if (auto.started.kind !== "challenge") throw new Error("expected a challenge");
    const page = await fetch(auto.started.acsUrl, { method: "POST", body: new URLSearchParams({ creq: auto.started.creq }) });
    expect(await page.text()).toContain(NOTIFICATION_URL);
    const done = await completeAuthentication({ threeDsServerTransId: auto.started.threeDsServerTransId, paymentId: auto.paymentId });
    expect(done).toMatchObject({ kind: "authenticated", threeDs: { transStatus: "Y", messageType: "RReq" } });
    const stored = await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: auto.started.authenticationId } });
    expect(stored.resultMessage).toMatchObject({ messageType: "RReq", transStatus: "Y", interactionCounter: "01" });
  });

  it("reports a card that is not enrolled, and a DS time-out, with the 3DS Server's Erro", async () => {
    const notEnrolled = await start(NOT_ENROLLED_PAN);
    expect(notEnrolled.started).toMatchObject({ kind: "not_authenticated" });
    if (notEnrolled.started.kind === "not_authenticated") expect(notEnrolled.started.reason).toMatch(/^\/preauth: .*Erro 305 Unknown BIN/);
    expect(notEnrolled.row).toMatchObject({ state: "failed", transStatusReason: "not_enrolled" });
    const timeout = await start("4000100511112063");
    if (timeout.started.kind !== "not_authenticated") throw new Error("expected not_authenticated");
    expect(timeout.started.reason).toMatch(/^\/auth: .*Erro 405 Unable to contact Directory Server/);
    expect(timeout.row).toMatchObject({ state: "failed", transStatusReason: "ds_unavailable" });
    expect(timeout.started.reason).not.toMatch(/\d{12,}/);
  });

  it("with a browser to run the 3DS Method: stops after /preauth for a method URL, goes straight on with U without one", async () => {
    const METHOD_NOTIFY = "https://pay.example/dynamic/s1/payments/p1/method-notify";
    const paymentId = await createPendingPayment(merchantId);
    const withMethod = await startAuthentication({
      paymentId,
      card: testCard("4000100511112003"),
      notificationUrl: NOTIFICATION_URL,
      browser: BROWSER,
      methodNotificationUrl: METHOD_NOTIFY,
    });
    expect(withMethod).toMatchObject({ kind: "method", methodUrl: `${strict.url()}/method` });
    if (withMethod.kind !== "method") throw new Error("expected method");
    expect(JSON.parse(Buffer.from(withMethod.methodData, "base64url").toString())).toEqual({
      threeDSServerTransID: withMethod.threeDsServerTransId,
      threeDSMethodNotificationURL: METHOD_NOTIFY,
    });
    // The ACS never notified: resumed, the AReq says N, and the reference's 3DS Server accepts it.
    const resumed = await startAuthentication({
      paymentId,
      card: testCard("4000100511112003"),
      notificationUrl: NOTIFICATION_URL,
      browser: BROWSER,
      methodNotificationUrl: METHOD_NOTIFY,
      resume: { authenticationId: withMethod.authenticationId },
    });
    expect(resumed).toMatchObject({
      kind: "authenticated",
      authenticationId: withMethod.authenticationId,
      threeDsServerTransId: withMethod.threeDsServerTransId,
    });

    const noMethod = await startAuthentication({
      paymentId: await createPendingPayment(merchantId),
      card: testCard("4000100511112103"),
      notificationUrl: NOTIFICATION_URL,
      browser: BROWSER,
      methodNotificationUrl: METHOD_NOTIFY,
    });
    expect(noMethod).toMatchObject({ kind: "authenticated" });
  });

  it("the method time-out card: the ACS's method page never notifies, so the AReq says N and is accepted", async () => {
    const paymentId = await createPendingPayment(merchantId);
    const card = testCard("4000100511112203");
    const methodNotificationUrl = "https://pay.example/dynamic/s1/payments/p1/method-notify";
    const first = await startAuthentication({
      paymentId,
      card,
      notificationUrl: NOTIFICATION_URL,
      browser: BROWSER,
      methodNotificationUrl,
    });
    if (first.kind !== "method") throw new Error("expected method");
    // The hidden iframe's POST: the sandbox answers a page that posts nothing back.
    const page = await (
      await fetch(first.methodUrl, { method: "POST", body: new URLSearchParams({ threeDSMethodData: first.methodData }) })
    ).text();
    expect(page).not.toContain("<form");
    const resumed = await startAuthentication({
      paymentId,
      card,
      notificationUrl: NOTIFICATION_URL,
      browser: BROWSER,
      methodNotificationUrl,
      resume: { authenticationId: first.authenticationId },
    });
    expect(resumed).toMatchObject({ kind: "authenticated", threeDs: { transStatus: "Y" } });
  });
});
