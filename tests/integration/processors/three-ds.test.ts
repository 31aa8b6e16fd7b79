// EMV 3-D Secure against the sandbox directory server and ACS, and the set3ds modes with the
// challenge cards, composed with authorizePayment over real HTTP and a real database.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useProcessorSandboxes } from "@/tests/helpers/processor-sandboxes";
import { db } from "@/lib/db";
import type { ThreeDsMode } from "@/lib/generated/prisma/enums";
import { authorizePayment, type AuthorizePaymentResult } from "@/lib/payments/authorize-payment";
import { completeAuthentication, threeDsServerTransIdFromCres } from "@/lib/threeds/complete-authentication";
import { creq as creqSchema, cres as cresSchema, decodeBase64Url, encodeBase64Url } from "@/lib/threeds/messages";
import { SANDBOX_CHALLENGE_CODE } from "@/lib/sandboxes/threeds/directory-server";
import { startAuthentication } from "@/lib/threeds/start-authentication";
import { decideThreeDsStep } from "@/lib/threeds/three-ds-mode";
import { declineClassOf } from "@/lib/routing/decline-class";
import { authorizeOperations, createPendingPayment, testCard } from "../../helpers/payment-factories";

useTestDatabase();

const NOTIFICATION_URL = "https://merchant.example/dynamic/s1/payments/p1/challenge-notify";

const services = useProcessorSandboxes({ hangMs: 10_000, extensions: true });
beforeAll(async () => {
  // The set3ds tests authorize at Clearhaus; an authentication's AReq names the account routing tries
  // first, and its result authorizes only there (issue 25), so Clearhaus comes first here.
  await db().processorRouting.updateMany({ where: { merchantId: services.merchantId }, data: { processors: ["clearhaus", "finaro", "bambora"] } });
});

type ChallengeAction = "complete" | "wrong-code" | "fail" | "cancel";

function formValue(html: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return match?.[1]?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** What a person does in the challenge iframe; returns the CRes the page posts to the notification URL. */
async function actInChallenge(acsUrl: string, creq: string, action: ChallengeAction): Promise<{ cres: string; postedTo: string }> {
  const page = await fetch(acsUrl, { method: "POST", body: new URLSearchParams({ creq, threeDSSessionData: "session-123" }) });
  expect(page.status).toBe(200);
  let html = await page.text();
  expect(html).toContain("Complete");
  expect(html).toContain("Cancel");
  const acsTransID = formValue(html, "acsTransID")!;
  const submit = (fields: Record<string, string>) =>
    fetch(new URL("challenge/submit", acsUrl), {
      method: "POST",
      body: new URLSearchParams({ acsTransID, threeDSSessionData: "session-123", ...fields }),
    });
  if (action === "wrong-code") {
    for (let attempt = 0; attempt < 3; attempt++) html = await (await submit({ action: "complete", code: "0000" })).text();
  } else {
    html = await (
      await submit({ action: action === "complete" ? "complete" : action, code: action === "complete" ? SANDBOX_CHALLENGE_CODE : "" })
    ).text();
  }
  const postedTo = /<form id="cres" method="post" action="([^"]+)"/.exec(html)?.[1] ?? "";
  expect(formValue(html, "threeDSSessionData")).toBe("session-123");
  return { cres: formValue(html, "cres")!, postedTo };
}

describe("3-D Secure authentication against the sandbox DS/ACS", () => {
  it.each([
    ["4111111111111111", "05"],
    ["5555555555554444", "02"],
    ["378282246310005", "05"],
  ])("authenticates %s frictionless with the scheme's ECI %s", async (pan, eci) => {
    const paymentId = await createPendingPayment(services.merchantId);
    const started = await startAuthentication({ paymentId, card: testCard(pan), notificationUrl: NOTIFICATION_URL });
    expect(started.kind).toBe("authenticated");
    if (started.kind !== "authenticated") return;
    expect(started.threeDs).toMatchObject({ eci, transStatus: "Y", version: "2.2.0" });
    expect(started.threeDs.authenticationValue).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(started.threeDs.dsTransId).toMatch(/^[0-9a-f-]{36}$/);
    const row = await db().threeDsAuthentication.findUniqueOrThrow({ where: { threeDsServerTransId: started.threeDsServerTransId } });
    expect(row).toMatchObject({
      paymentId,
      state: "completed",
      transStatus: "Y",
      eci,
      challengeRequired: false,
      dsTransId: started.threeDs.dsTransId,
    });
  });

  it("asks for a challenge for 4000000000003220 with a base64url CReq without padding", async () => {
    const paymentId = await createPendingPayment(services.merchantId);
    const started = await startAuthentication({ paymentId, card: testCard("4000000000003220"), notificationUrl: NOTIFICATION_URL });
    expect(started.kind).toBe("challenge");
    if (started.kind !== "challenge") return;
    expect(started.creq).toMatch(/^[A-Za-z0-9_-]+$/);
    const creq = decodeBase64Url(creqSchema, started.creq);
    expect(creq).toMatchObject({
      messageType: "CReq",
      messageVersion: "2.2.0",
      threeDSServerTransID: started.threeDsServerTransId,
      challengeWindowSize: "05",
    });
    expect(started.acsUrl).toBe(`${services.sandboxes.urls.threeds}/acs/challenge`);
    const row = await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: started.authenticationId } });
    expect(row).toMatchObject({ state: "challenge", transStatus: "C", challengeRequired: true, acsTransId: creq!.acsTransID });
    // Nothing is decided until the cardholder finishes.
    expect((await completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId })).kind).toBe("no_result");
  });

  it.each([
    ["complete", "authenticated", "Y", "completed"],
    ["wrong-code", "failed", "N", "failed"],
    ["fail", "failed", "N", "failed"],
    ["cancel", "cancelled", "N", "aborted"],
  ] as const)("records a %s challenge from the directory server's result", async (action, kind, cresStatus, state) => {
    const paymentId = await createPendingPayment(services.merchantId);
    const started = await startAuthentication({ paymentId, card: testCard("4000000000003006"), notificationUrl: NOTIFICATION_URL });
    if (started.kind !== "challenge") throw new Error("expected a challenge");
    const { cres, postedTo } = await actInChallenge(started.acsUrl, started.creq, action);
    expect(postedTo).toBe(NOTIFICATION_URL);
    expect(cres).not.toContain("=");
    expect(decodeBase64Url(cresSchema, cres)).toMatchObject({ messageType: "CRes", transStatus: cresStatus, challengeCompletionInd: "Y" });
    expect(threeDsServerTransIdFromCres(cres)).toBe(started.threeDsServerTransId);
    const result = await completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId, paymentId });
    expect(result.kind).toBe(kind);
    if (result.kind === "authenticated") expect(result.threeDs).toMatchObject({ eci: "05", transStatus: "Y" });
    const row = await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: started.authenticationId } });
    expect(row.state).toBe(state);
    expect(row.completedAt).not.toBeNull();
  });

  it("does not take the browser's word: a forged CRes does not finish the authentication", async () => {
    const paymentId = await createPendingPayment(services.merchantId);
    const started = await startAuthentication({ paymentId, card: testCard("4000000000003220"), notificationUrl: NOTIFICATION_URL });
    if (started.kind !== "challenge") throw new Error("expected a challenge");
    const forged = encodeBase64Url({
      messageType: "CRes",
      messageVersion: "2.2.0",
      threeDSServerTransID: started.threeDsServerTransId,
      acsTransID: "x",
      transStatus: "Y",
      challengeCompletionInd: "Y",
    });
    expect(threeDsServerTransIdFromCres(forged)).toBe(started.threeDsServerTransId);
    expect((await completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId })).kind).toBe("no_result");
  });

  it("refuses to complete an authentication for another payment", async () => {
    const paymentId = await createPendingPayment(services.merchantId);
    const started = await startAuthentication({ paymentId, card: testCard("4000000000003220"), notificationUrl: NOTIFICATION_URL });
    await expect(
      completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId, paymentId: "someotherpayment" }),
    ).rejects.toThrow(/no such/);
  });

  it("rejects a tampered CReq at the ACS", async () => {
    const response = await fetch(`${services.sandboxes.urls.threeds}/acs/challenge`, {
      method: "POST",
      body: new URLSearchParams({
        creq: encodeBase64Url({ messageType: "CReq", messageVersion: "2.2.0", threeDSServerTransID: "a", acsTransID: "b" }),
      }),
    });
    expect(response.status).toBe(400);
  });

  it("reports a currency 3-D Secure cannot express as not authenticated", async () => {
    const paymentId = await createPendingPayment(services.merchantId, { currency: "XTS" });
    const started = await startAuthentication({ paymentId, card: testCard("4111111111111111"), notificationUrl: NOTIFICATION_URL });
    expect(started.kind).toBe("not_authenticated");
  });
});

interface ModeOutcome {
  authorization?: AuthorizePaymentResult;
  challenged: boolean;
  stoppedBecause?: string;
  paymentId: string;
}

/** Runs a payment the way the set3ds modes prescribe (decideThreeDsStep), with a person acting in the challenge. */
async function payWithMode(mode: ThreeDsMode, pan: string, action: ChallengeAction = "complete"): Promise<ModeOutcome> {
  const paymentId = await createPendingPayment(services.merchantId);
  const card = testCard(pan);
  const authorize = (threeDs?: Parameters<typeof authorizePayment>[0]["threeDs"]) =>
    authorizePayment({ paymentId, source: { kind: "card", card }, processors: ["clearhaus"], threeDs });
  const first = decideThreeDsStep({ mode, at: "start" });
  if (first.step !== "authenticate") return { paymentId, challenged: false, authorization: await authorize() };
  const started = await startAuthentication({ paymentId, card, notificationUrl: NOTIFICATION_URL });
  const ares =
    started.kind === "authenticated" ? started.threeDs.transStatus : started.kind === "challenge" ? "C" : started.kind === "not_authenticated" ? (started.transStatus ?? "U") : "U";
  let step = decideThreeDsStep({ mode, at: { ares } });
  let authorization: AuthorizePaymentResult | undefined;
  if (step.step === "authorize_with_3ds" && started.kind === "authenticated")
    return { paymentId, challenged: false, authorization: await authorize(started.threeDs) };
  if (step.step === "authorize_without_3ds") {
    authorization = await authorize();
    if (authorization.status === "approved") return { paymentId, challenged: false, authorization };
    step = decideThreeDsStep({ mode, at: { declinedWithout3ds: declineClassOf(authorization.attempts.at(-1)!.result) } });
  }
  if (step.step !== "challenge" || started.kind !== "challenge")
    return { paymentId, challenged: false, authorization, stoppedBecause: step.step === "fail" ? step.reason : step.step };
  await actInChallenge(started.acsUrl, started.creq, action);
  const completed = await completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId, paymentId });
  const after = decideThreeDsStep({
    mode,
    at: {
      challenge: completed.kind === "authenticated" ? completed.threeDs.transStatus : completed.kind === "cancelled" ? "cancelled" : "N",
    },
  });
  if (after.step === "authorize_with_3ds" && completed.kind === "authenticated")
    return { paymentId, challenged: true, authorization: await authorize(completed.threeDs) };
  return { paymentId, challenged: true, authorization, stoppedBecause: after.step === "fail" ? after.reason : after.step };
}

describe("set3ds modes with the challenge cards", () => {
  it("SKIP_3DS never authenticates: 4000000000003006 is declined (1A), 4000000000003220 approved without 3-D Secure", async () => {
    const declined = await payWithMode("SKIP_3DS", "4000000000003006");
    expect(declined.authorization).toMatchObject({ status: "declined", responsecode: "1A" });
    const approved = await payWithMode("SKIP_3DS", "4000000000003220");
    expect(approved.authorization).toMatchObject({ status: "approved" });
    for (const outcome of [declined, approved]) {
      expect(await db().threeDsAuthentication.count({ where: { paymentId: outcome.paymentId } })).toBe(0);
      expect((await db().payment.findUniqueOrThrow({ where: { id: outcome.paymentId } })).sca).toBeNull();
    }
  });

  it("FORCE_3DS runs the challenge; a completed challenge authorizes with ECI 05 and sca Y", async () => {
    for (const pan of ["4000000000003220", "4000000000003006"]) {
      const outcome = await payWithMode("FORCE_3DS", pan, "complete");
      expect(outcome.challenged).toBe(true);
      expect(outcome.authorization).toMatchObject({ status: "approved", eci: "05" });
      const operations = await authorizeOperations(outcome.paymentId);
      expect(operations).toHaveLength(1);
      expect(operations[0]).toMatchObject({ status: "approved", eci: "05" });
      expect(await db().payment.findUniqueOrThrow({ where: { id: outcome.paymentId } })).toMatchObject({
        status: "AUTHORIZED",
        sca: "Y",
        eci: "05",
      });
    }
  });

  it.each(["fail", "cancel", "wrong-code"] as const)(
    "FORCE_3DS: a %s challenge stops the payment before any authorization",
    async (action) => {
      const outcome = await payWithMode("FORCE_3DS", "4000000000003220", action);
      expect(outcome.challenged).toBe(true);
      expect(outcome.authorization).toBeUndefined();
      expect(outcome.stoppedBecause).toMatch(action === "cancel" ? /cancelled/ : /failed/);
      expect(await authorizeOperations(outcome.paymentId)).toHaveLength(0);
    },
  );

  it("FORCE_3DS with a frictionless card authorizes without a challenge", async () => {
    const outcome = await payWithMode("FORCE_3DS", "2221000000000009");
    expect(outcome).toMatchObject({ challenged: false, authorization: { status: "approved", eci: "02" } });
  });

  it("FALLBACK_3DS first tries without 3-D Secure: 4000000000003220 is approved without a challenge", async () => {
    const outcome = await payWithMode("FALLBACK_3DS", "4000000000003220");
    expect(outcome.challenged).toBe(false);
    expect(outcome.authorization).toMatchObject({ status: "approved" });
    expect(outcome.authorization!.eci).toBeUndefined();
    expect((await authorizeOperations(outcome.paymentId)).map((operation) => operation.status)).toEqual(["approved"]);
  });

  it("FALLBACK_3DS: 4000000000003006 is declined without 3-D Secure, then approved after a completed challenge", async () => {
    const outcome = await payWithMode("FALLBACK_3DS", "4000000000003006", "complete");
    expect(outcome.challenged).toBe(true);
    expect(outcome.authorization).toMatchObject({ status: "approved", eci: "05" });
    const operations = await authorizeOperations(outcome.paymentId);
    expect(operations.map((operation) => [operation.routingAttempt, operation.status, operation.responseCode, operation.eci])).toEqual([
      [1, "declined", "1A", null],
      [2, "approved", "00", "05"],
    ]);
    expect(await db().payment.findUniqueOrThrow({ where: { id: outcome.paymentId } })).toMatchObject({ status: "AUTHORIZED", sca: "Y" });
  });

  it.each(["fail", "cancel"] as const)("FALLBACK_3DS: 4000000000003006 stays declined after a %s challenge", async (action) => {
    const outcome = await payWithMode("FALLBACK_3DS", "4000000000003006", action);
    expect(outcome.challenged).toBe(true);
    expect(outcome.authorization).toMatchObject({ status: "declined", responsecode: "1A" });
    expect(await authorizeOperations(outcome.paymentId)).toHaveLength(1);
    expect((await db().payment.findUniqueOrThrow({ where: { id: outcome.paymentId } })).status).toBe("DECLINED");
  });
});
