// Routing on under 3-D Secure (issue 38 item 3, docs/decisions/0192): a 3-D Secure payment declined
// (soft) at one acquirer account is authenticated again for the next account, with that account's
// acquirerBIN and merchant id, and authorized there with that authentication; never with the first
// account's. Over real HTTP against the acquirer sandboxes and the strict 3DS Server sandbox
// (lib/sandboxes/threeds/three-ds-server.ts, from the 3dsecure.io reference), whose onAReq hook shows
// what the 3DS Server received. The cardholder's browser (our challenge page, the ACS, the CRes) is
// played by fetch here and by Chromium in tests/e2e/cardholder/fallback-cards.spec.ts.
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { getPaymentDetails } from "@/lib/payments/get-payment-details";
import { completionNotificationId } from "@/lib/notifications/send-completion-notification";
import { useStrictThreeDsServer } from "@/tests/helpers/strict-three-ds-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useCardholderServices } from "@/tests/helpers/cardholder-services";
import { createTestSession } from "../../helpers/session-factory";
import { formAction, hiddenFields } from "../../helpers/challenge-pages";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);
const card = (pan: string) => ({ pan, expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" });
/** Declined by finaro (05), approved by the others; frictionless for every account (docs/integration.md). */
const FRICTIONLESS_FALLBACK = card("4000000000080103");
/** The same, with a challenge at every authentication; declined 1A without 3-D Secure by the others. */
const CHALLENGE_FALLBACK = card("4000000000060170");

const strict = useStrictThreeDsServer();

const services = useCardholderServices({ extensions: true });
beforeEach(() => {
  strict.acceptedAReqs.length = 0;
  strict.received.length = 0;
  strict.failing = undefined;
});

const binding = (sessionId: string) => createOriginBinding(sessionId, MERCHANT_ORIGIN);

async function openPayment(set3ds: "FORCE_3DS" | "FALLBACK_3DS", processors: ("finaro" | "clearhaus" | "bambora")[] = ["finaro", "clearhaus"]) {
  const created = await createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify", set3ds, processors });
  const paymentId = String((await services.server.postJson(`/dynamic/${created.id}/payments`, {})).paymentid);
  return { sessionId: created.id, paymentId };
}

const sendCard = (sessionId: string, paymentId: string, parts: ReturnType<typeof card>) =>
  services.server.postJson(`/dynamic/${sessionId}/payments/${paymentId}/authorize`, { card: parts, binding: binding(sessionId) });

/** The cardholder in the challenge frame: our page posts the CReq to the ACS, the code is entered, the ACS posts the CRes to us. */
async function completeChallenge(sessionId: string, url: string): Promise<string> {
  const ours = await (await fetch(`${services.server.origin}${url}&b=${encodeURIComponent(binding(sessionId))}`)).text();
  const acsUrl = formAction(ours, "acs-form");
  const acsPage = await (await fetch(acsUrl, { method: "POST", body: new URLSearchParams(hiddenFields(ours)) })).text();
  // The card's last four (…70, sandbox.rst) make the ACS pass the challenge itself: its page posts the CRes back at once.
  const submitted = acsPage;
  const notified = await fetch(formAction(submitted), { method: "POST", body: new URLSearchParams(hiddenFields(submitted)) });
  return /"outcome":"(\w+)"/.exec(await notified.text())![1]!;
}

async function accountIdOf(processor: string): Promise<{ id: string; acquirerMerchantId: string }> {
  return db().acquirerAccount.findFirstOrThrow({ where: { merchantId: services.merchantId, processor: processor as never }, select: { id: true, acquirerMerchantId: true } });
}

const attemptsOf = (paymentId: string) =>
  db().operation.findMany({
    where: { paymentId, type: "authorize" },
    orderBy: { routingAttempt: "asc" },
    select: { processor: true, status: true, responseCode: true, acquirerAccountId: true, authenticationId: true, eci: true, note: true },
  });

const authenticationsOf = (paymentId: string) =>
  db().threeDsAuthentication.findMany({
    where: { paymentId },
    orderBy: { createdAt: "asc" },
    select: { id: true, acquirerAccountId: true, reason: true, state: true, transStatus: true },
  });

describe("FORCE_3DS: a decline at one account is authenticated again for the next", () => {
  it("declined-soft at finaro: a second AReq with clearhaus's BIN and merchant id, approved at clearhaus with that authentication, one completion notification", async () => {
    const { sessionId, paymentId } = await openPayment("FORCE_3DS");
    expect(await sendCard(sessionId, paymentId, FRICTIONLESS_FALLBACK)).toEqual({ result: "approved", paymentid: paymentId });

    const finaro = await accountIdOf("finaro");
    const clearhaus = await accountIdOf("clearhaus");
    // The 3DS Server saw two authentications, each naming its own acquirer account.
    expect(strict.acceptedAReqs.map((areq) => [areq.acquirerBIN, areq.acquirerMerchantID])).toEqual([
      ["411110", finaro.acquirerMerchantId],
      ["421110", clearhaus.acquirerMerchantId],
    ]);
    const authentications = await authenticationsOf(paymentId);
    expect(authentications).toMatchObject([
      { acquirerAccountId: finaro.id, reason: null, state: "completed", transStatus: "Y" },
      { acquirerAccountId: clearhaus.id, reason: "routing", state: "completed", transStatus: "Y" },
    ]);
    // Each attempt carried its own account's authentication, never the other's.
    expect(await attemptsOf(paymentId)).toMatchObject([
      { processor: "finaro", status: "declined", responseCode: "05", acquirerAccountId: finaro.id, authenticationId: authentications[0]!.id },
      { processor: "clearhaus", status: "approved", acquirerAccountId: clearhaus.id, authenticationId: authentications[1]!.id, eci: "05" },
    ]);
    // The payment details (2.3, operations[].note) say which authentication the second attempt carried.
    const details = await getPaymentDetails({ merchantId: services.merchantId, mode: "test", paymentRef: paymentId, responseId: "r1" });
    expect(details.operations.map((operation) => [operation.operationtype, operation.responsecode, operation.status, operation.note])).toEqual([
      ["authorize", "05", "declined", ""],
      [
        "authorize",
        "00",
        "approved",
        "3-D Secure authenticated again for this processor's account after a decline at the previous one (frictionless, transStatus Y, ECI 05)",
      ],
    ]);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: "AUTHORIZED",
      processor: "clearhaus",
      sca: "Y",
      routingStopped: null,
    });
    expect(await db().notification.count({ where: { paymentId, kind: "completion" } })).toBe(1);
    expect(JSON.parse((await db().notification.findUniqueOrThrow({ where: { id: completionNotificationId(sessionId) } })).body)).toMatchObject({
      status: "approved",
    });
  });

  it("a challenge the second account's issuer asks for is shown in the same window, and its result authorizes there", async () => {
    const { sessionId, paymentId } = await openPayment("FORCE_3DS");
    const first = await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK);
    expect(first.result).toBe("challenge");
    expect(await completeChallenge(sessionId, String(first.url))).toBe("completed");
    // The controller sends the card again: finaro declines, and the next account's authentication asks for its own challenge.
    const second = await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK);
    expect(second).toMatchObject({ result: "challenge", paymentid: paymentId });
    expect(second.url).not.toBe(first.url);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("OPEN");
    expect(await completeChallenge(sessionId, String(second.url))).toBe("completed");
    expect(await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK)).toEqual({ result: "approved", paymentid: paymentId });

    const clearhaus = await accountIdOf("clearhaus");
    expect((await attemptsOf(paymentId)).map((attempt) => [attempt.processor, attempt.status])).toEqual([
      ["finaro", "declined"],
      ["clearhaus", "approved"],
    ]);
    expect(await authenticationsOf(paymentId)).toMatchObject([
      { reason: null, state: "completed" },
      { reason: "routing", state: "completed", acquirerAccountId: clearhaus.id },
    ]);
    expect(strict.acceptedAReqs.map((areq) => areq.acquirerBIN)).toEqual(["411110", "421110"]);
    expect(await db().notification.count({ where: { paymentId, kind: "completion" } })).toBe(1);
  });

  it("the cardholder cancelling the second challenge ends it as a first one's cancel does: aborted, the window open, nothing sent to clearhaus", async () => {
    const { sessionId, paymentId } = await openPayment("FORCE_3DS");
    const first = await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK);
    expect(await completeChallenge(sessionId, String(first.url))).toBe("completed");
    const second = await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK);
    expect(second.result).toBe("challenge");
    expect(await services.server.postJson(`/dynamic/${sessionId}/payments/${paymentId}/abort-challenge`, {})).toEqual({ aborted: true });
    expect((await authenticationsOf(paymentId)).map((row) => row.state)).toEqual(["completed", "aborted"]);
    expect((await attemptsOf(paymentId)).map((attempt) => attempt.processor)).toEqual(["finaro"]);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "DECLINED", processor: "finaro" });
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("OPEN");
    expect(await db().notification.count({ where: { paymentId, kind: "completion" } })).toBe(0);
  });

  it("the 3DS Server failing during the re-authentication: the payment keeps finaro's decline and says why, and nothing is sent to clearhaus", async () => {
    const { sessionId, paymentId } = await openPayment("FORCE_3DS");
    strict.failing = { path: "/preauth", after: 1 };
    const clearhausBefore = services.sandboxes.ledgers.clearhaus!.transactions().length;
    expect(await sendCard(sessionId, paymentId, FRICTIONLESS_FALLBACK)).toMatchObject({ result: "failed", errorcode: "PAYMENT_DECLINED" });
    expect((await attemptsOf(paymentId)).map((attempt) => [attempt.processor, attempt.status, attempt.responseCode])).toEqual([
      ["finaro", "declined", "05"],
    ]);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: "DECLINED", processor: "finaro", authorizedAmount: 0n });
    expect(payment.routingStopped).toMatch(/^routing stopped: 3-D Secure for clearhaus gave no authentication \(\/preauth: .+\), so clearhaus was not tried$/);
    expect((await authenticationsOf(paymentId)).map((row) => [row.reason, row.state])).toEqual([
      [null, "completed"],
      ["routing", "failed"],
    ]);
    // No hold anywhere: finaro declined, clearhaus was never asked.
    expect(services.sandboxes.ledgers.clearhaus!.transactions()).toHaveLength(clearhausBefore);
    expect((await db().paymentSession.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe("OPEN");
  });
});

describe("FALLBACK_3DS: a step-up only where the issuer asked for authentication", () => {
  it("finaro declines 05 without 3-D Secure, clearhaus 1A: the routing stops there, clearhaus is authenticated with the challenge mandated (04), and approves", async () => {
    const { sessionId, paymentId } = await openPayment("FALLBACK_3DS");
    const first = await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK);
    expect(first).toMatchObject({ result: "challenge", paymentid: paymentId });
    expect((await attemptsOf(paymentId)).map((attempt) => [attempt.processor, attempt.responseCode, attempt.authenticationId])).toEqual([
      ["finaro", "05", null],
      ["clearhaus", "1A", null],
    ]);
    const finaro = await accountIdOf("finaro");
    const clearhaus = await accountIdOf("clearhaus");
    // The first ARes (for finaro) asked for a challenge; the step-up is a new authentication for clearhaus, challenge mandated.
    expect(strict.acceptedAReqs.map((areq) => [areq.acquirerMerchantID, areq.threeDSRequestorChallengeInd])).toEqual([
      [finaro.acquirerMerchantId, "01"],
      [clearhaus.acquirerMerchantId, "04"],
    ]);
    expect(await completeChallenge(sessionId, String(first.url))).toBe("completed");
    expect(await sendCard(sessionId, paymentId, CHALLENGE_FALLBACK)).toEqual({ result: "approved", paymentid: paymentId });
    const attempts = await attemptsOf(paymentId);
    expect(attempts.map((attempt) => [attempt.processor, attempt.status])).toEqual([
      ["finaro", "declined"],
      ["clearhaus", "declined"],
      ["clearhaus", "approved"],
    ]);
    expect(attempts[2]!.note).toMatch(/^3-D Secure step-up: the issuer asked for authentication \(challenge, transStatus Y, ECI 05\)$/);
    expect((await authenticationsOf(paymentId)).map((row) => [row.acquirerAccountId, row.reason])).toEqual([
      [finaro.id, null],
      [clearhaus.id, "step-up"],
    ]);
    expect(await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: "AUTHORIZED", processor: "clearhaus", sca: "Y" });
  });
});
