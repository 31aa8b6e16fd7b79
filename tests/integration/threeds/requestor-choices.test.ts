// The requestor's side of issue 25 over real HTTP against the strict 3DS Server sandbox: the hosted
// integration's challenge preference travels as threeDSRequestorChallengeInd and is recorded with what
// the issuer did; the cardholder's name and e-mail go along where the payment has them, in the
// reference's formats (malformed ones left out, the payment not failed); an MIT never calls the 3DS
// Server at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP_BROWSER, useStrictThreeDsServer } from "@/tests/helpers/strict-three-ds-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { THREEDS_SERVER_CHALLENGE_CODE } from "@/lib/sandboxes/threeds/three-ds-server";
import { completeAuthentication } from "@/lib/threeds/complete-authentication";
import { startAuthentication } from "@/lib/threeds/start-authentication";
import type { ChallengePreference } from "@/lib/validation/challenge-preference";
import { authorizeMit } from "@/lib/payments/authorize-mit";
import { authorizeAcceptedMit } from "@/lib/payments/authorize-accepted-mit";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { mitRequestSchema } from "@/lib/validation/mit";
import { createTestPayment } from "@/tests/helpers/merchant-factories";
import { createPendingPayment, createProcessorTestMerchant, testCard } from "../../helpers/payment-factories";

useTestDatabase();

const NOTIFICATION_URL = "https://pay.example/dynamic/s1/payments/p1/challenge-notify";
const BROWSER = DESKTOP_BROWSER;
const strict = useStrictThreeDsServer();
/** Every request the 3DS Server received: path and JSON body (the test's own sandbox; nothing leaves it). */
const received = strict.received;
let merchantId: string;

beforeAll(async () => {
  merchantId = await createProcessorTestMerchant();
});

/** A pending CIT payment of a session opened with a hostedid of this preference (none: no hostedid). */
async function sessionPayment(preference?: ChallengePreference, customer: { firstName?: string; surname?: string; email?: string } = {}) {
  const paymentId = await createPendingPayment(merchantId);
  await db().payment.update({
    where: { id: paymentId },
    data: { customerFirstName: customer.firstName, customerSurname: customer.surname, customerEmail: customer.email },
  });
  const integration = preference
    ? await db().hostedIntegration.create({
        data: { id: newId(), merchantId, hostedId: `h${newId()}`.slice(0, 40), name: "Shop", threeDsChallengePreference: preference },
      })
    : undefined;
  await db().paymentSession.create({
    data: {
      id: newId(),
      merchantId,
      mode: "test",
      amount: 10_000n,
      currency: "DKK",
      expiresAt: new Date(Date.now() + 900_000),
      hostedIntegrationId: integration?.id,
      paymentId,
      status: "PROCESSING",
    },
  });
  return paymentId;
}

async function authenticate(paymentId: string, pan: string) {
  const before = received.length;
  const started = await startAuthentication({ paymentId, card: testCard(pan), notificationUrl: NOTIFICATION_URL, browser: BROWSER });
  const areq = received.slice(before).find((entry) => entry.path === "/auth")?.body;
  const row = await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: started.authenticationId } });
  return { started, areq, row };
}

describe("the hosted integration's challenge preference", () => {
  it("is sent as threeDSRequestorChallengeInd 01-04 and recorded; a session without hostedid asks 01 (no preference)", async () => {
    const cases: [ChallengePreference | undefined, string][] = [
      [undefined, "01"],
      ["no_preference", "01"],
      ["no_challenge", "02"],
      ["challenge_requested", "03"],
    ];
    for (const [preference, indicator] of cases) {
      const { started, areq, row } = await authenticate(await sessionPayment(preference), "4000100511112103");
      expect(areq?.threeDSRequestorChallengeInd, String(preference)).toBe(indicator);
      expect(started.kind).toBe("authenticated");
      expect(row).toMatchObject({ challengeIndicator: indicator, transStatus: "Y", challengeRequired: false, eci: "05" });
    }
  });

  it("a challenge card still challenges under 'no challenge requested': the issuer's mandate is recorded (acsChallengeMandated Y)", async () => {
    const { started, areq, row } = await authenticate(await sessionPayment("no_challenge"), "4000100511112170");
    expect(areq?.threeDSRequestorChallengeInd).toBe("02");
    expect(started.kind).toBe("challenge");
    expect(row).toMatchObject({
      challengeIndicator: "02",
      transStatus: "C",
      challengeRequired: true,
      acsChallengeMandated: "Y",
      state: "challenge",
    });
  });

  it("a mandate (04) on a frictionless card is challenged (sandbox-only ACS behaviour), and the RReq completes it", async () => {
    const paymentId = await sessionPayment("challenge_mandated");
    const { started, areq, row } = await authenticate(paymentId, "4000100511112103");
    expect(areq?.threeDSRequestorChallengeInd).toBe("04");
    expect(row).toMatchObject({ challengeIndicator: "04", transStatus: "C", challengeRequired: true, acsChallengeMandated: "N" });
    if (started.kind !== "challenge") throw new Error("expected a challenge");
    // The cardholder's browser: the CReq to the ACS, the code, the CRes to our notification URL.
    const page = await fetch(started.acsUrl, { method: "POST", body: new URLSearchParams({ creq: started.creq }) });
    const html = await page.text();
    const acsTransID = /name="acsTransID" value="([^"]+)"/.exec(html)?.[1];
    expect(acsTransID).toBeTruthy();
    const submitted = await fetch(new URL("challenge/submit", started.acsUrl), {
      method: "POST",
      body: new URLSearchParams({
        acsTransID: acsTransID!,
        threeDSSessionData: "",
        action: "complete",
        code: THREEDS_SERVER_CHALLENGE_CODE,
      }),
    });
    expect(await submitted.text()).toContain(NOTIFICATION_URL);
    const done = await completeAuthentication({ threeDsServerTransId: started.threeDsServerTransId, paymentId });
    expect(done).toMatchObject({ kind: "authenticated", threeDs: { transStatus: "Y", messageType: "RReq" } });
    expect(await db().threeDsAuthentication.findUniqueOrThrow({ where: { id: started.authenticationId } })).toMatchObject({
      challengeIndicator: "04",
      transStatus: "Y",
      state: "completed",
    });
  });
});

describe("the cardholder's name and e-mail in the AReq", () => {
  it("are sent where the payment has them, in ASCII, and the strict sandbox accepts them", async () => {
    const { started, areq } = await authenticate(
      await sessionPayment("no_preference", { firstName: "Søren", surname: "Ærø", email: "soren@example.com" }),
      "4000100511112103",
    );
    expect(areq).toMatchObject({ cardholderName: "Soren AEro", email: "soren@example.com" });
    expect(started.kind).toBe("authenticated");
  });

  it("are left out when malformed, rather than failing the payment; absent when the payment has none", async () => {
    const malformed = await authenticate(
      await sessionPayment(undefined, { firstName: "Иван", surname: "Петров", email: "ivan at example" }),
      "4000100511112103",
    );
    expect(malformed.areq).not.toHaveProperty("cardholderName");
    expect(malformed.areq).not.toHaveProperty("email");
    expect(malformed.started.kind).toBe("authenticated");
    const none = await authenticate(await createPendingPayment(merchantId), "4000100511112103");
    expect(none.areq).not.toHaveProperty("cardholderName");
    expect(none.areq?.threeDSRequestorChallengeInd).toBe("01");
    expect(none.started.kind).toBe("authenticated");
  });
});

describe("merchant-initiated payments", () => {
  let acquirers: RunningSandboxes;
  beforeAll(async () => {
    acquirers = await startSandboxes({ processors: ["clearhaus"], threeDs: false });
  });
  afterAll(async () => {
    await acquirers?.close();
  });

  it.each(["scheduled", "unscheduled", "incremental"] as const)(
    "%s MIT runs without a cardholder: no /preauth, no /auth, no authentication row, even with a customer and a 3-D Secure card",
    async (paymenttype) => {
      const parent = await createTestPayment({
        merchantId,
        status: "CAPTURED",
        captures: [10_000n],
        withStoredCard: { pan: "4000100511112003", issuer: "Sandbox Bank", scheme: "visa", funding: "debit", segment: "consumer" },
      });
      const before = received.length;
      const input = mitRequestSchema.parse({
        merchantid: merchantId,
        paymentid: parent.paymentId,
        amount: 4999,
        currency: "DKK",
        paymenttype,
        processor: "clearhaus",
        customer: { email: "ann@example.com", firstname: "Ann", surename: "Berg", ipaddress: "192.0.2.10" },
        notificationurl: "http://127.0.0.1:9/mit-notify",
      });
      const responseId = newId();
      const { paymentId } = await authorizeMit({ merchantId, mode: "test", input, responseId });
      const outcome = await authorizeAcceptedMit({ paymentId, responseId });
      // The acquirer was asked (whatever it answered); the 3DS Server never was.
      expect(["approved", "declined", "failed"]).toContain(outcome.status);
      expect(await db().operation.count({ where: { paymentId, type: "authorize" } })).toBeGreaterThan(0);
      expect(received.slice(before)).toEqual([]);
      expect(await db().threeDsAuthentication.count({ where: { paymentId } })).toBe(0);
    },
  );
});
