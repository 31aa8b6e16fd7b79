// Starts EMV 3-D Secure for a payment as the 3dsecure.io API asks (preauth.rst, auth.rst): /preauth
// with the card number gives the threeDSServerTransID and the protocol versions, then /auth carries the
// browser AReq (lib/threeds/browser-areq.ts) and records the authentication. The answer is either a
// frictionless result or a challenge (ACS URL plus the CReq the browser posts in an iframe).
import { randomUUID } from "node:crypto";
import type { CardDetails } from "../cards/card-details";
import { db } from "../db";
import { newId } from "../ids";
import type { ThreeDsResult } from "../acquirers/contract";
import { recordedSubject } from "./authentication-binding";
import { sendAReq, sendPreauth, ThreeDsUnavailableError } from "./ds-client";
import { authenticationResultColumns } from "./authentication-result-columns";
import { browserAReqFields, chooseMessageVersion, purchaseDate, type CardholderBrowser } from "./browser-areq";
import { config } from "../env";
import { log } from "../observability/logger";
import { currencyForAReq, encodeBase64Url, type CReq, type TransStatus } from "./messages";
import { schemeFromPan } from "../cards/card-scheme";
import { threeDsRequestorFor } from "../routing/accounts/three-ds-requestor";
import { challengeIndicatorFor } from "../validation/challenge-preference";
import { cardholderAReqFields } from "./cardholder-areq";

/** The version an authentication row starts with, before /preauth names the card's versions. */
export const THREE_DS_MESSAGE_VERSION = "2.2.0";

export interface StartAuthenticationOptions {
  paymentId: string;
  card: CardDetails;
  /** Where the ACS page posts the CRes when the challenge ends (the cardholder flow's endpoint). */
  notificationUrl: string;
  challengeWindowSize?: CReq["challengeWindowSize"];
  /** What the cardholder's browser told us: its request headers and IP, and the facts the frame read. */
  browser?: CardholderBrowser;
  /**
   * Where the ACS posts the 3DS Method's completion. Given, a card range with a method URL ends this
   * call with `method` (the browser runs the method, then `resume` sends the AReq); absent, the AReq
   * follows /preauth at once with threeDSCompInd N (a method that did not run) or U.
   */
  methodNotificationUrl?: string;
  /** The authentication a `method` answer left waiting: its /preauth id is used, threeDSCompInd from its notification. */
  resume?: { authenticationId: string };
  /**
   * The acquirer account to authenticate for (its acquirerBIN and merchant id in the AReq); absent,
   * the first account of the routing. A re-authentication names the next account (decision 0192).
   */
  acquirerAccountId?: string;
  /** Why this authentication is made: "routing" (the next account after a decline) or "step-up" (after authentication-required). */
  reason?: "routing" | "step-up";
}

/** EMV 3DS threeDSRequestorChallengeInd 04, "Challenge requested (Mandate)": what a step-up after a soft decline for SCA sends. */
const STEP_UP_CHALLENGE_INDICATOR = "04";
const CHALLENGE_INDICATORS = ["01", "02", "03", "04"] as const;

export type StartAuthenticationResult =
  | { kind: "authenticated"; authenticationId: string; threeDsServerTransId: string; threeDs: ThreeDsResult }
  | {
      kind: "challenge";
      authenticationId: string;
      threeDsServerTransId: string;
      acsUrl: string;
      creq: string;
      /** The acquirer account the AReq named: the challenge's result authorizes there only. */
      acquirerAccountId?: string;
    }
  /** The card range has a 3DS Method: the browser posts `methodData` to `methodUrl` in a hidden iframe first. */
  | { kind: "method"; authenticationId: string; threeDsServerTransId: string; methodUrl: string; methodData: string }
  /** N, R, U, I, or the DS could not be reached (transStatus undefined). */
  | { kind: "not_authenticated"; authenticationId: string; threeDsServerTransId: string; transStatus?: TransStatus; reason: string };

export async function startAuthentication({
  paymentId,
  card,
  notificationUrl,
  challengeWindowSize = "05",
  browser = {},
  methodNotificationUrl,
  resume,
  acquirerAccountId,
  reason,
}: StartAuthenticationOptions): Promise<StartAuthenticationResult> {
  const payment = await db().payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: {
      amount: true,
      currency: true,
      mode: true,
      createdAt: true,
      customerFirstName: true,
      customerSurname: true,
      customerEmail: true,
      session: { select: { hostedIntegration: { select: { threeDsChallengePreference: true } } } },
    },
  });
  // Until /preauth answers, the row carries an id of our own (it is replaced by the 3DS Server's).
  let threeDsServerTransId: string = randomUUID();
  const waiting = resume ? await methodAwaitingAReq(resume.authenticationId, paymentId) : undefined;
  if (waiting) threeDsServerTransId = waiting.threeDsServerTransId;
  // The hosted integration's preference (01 when the session named none), or the mandate a step-up
  // sends; a resumed authentication keeps what it started with. Recorded with what the issuer did.
  const resumedIndicator = CHALLENGE_INDICATORS.find((value) => value === waiting?.challengeIndicator);
  const challengeIndicator =
    resumedIndicator ??
    (reason === "step-up" ? STEP_UP_CHALLENGE_INDICATOR : challengeIndicatorFor(payment.session?.hostedIntegration?.threeDsChallengePreference));
  // A resumed authentication is for the account it started for (a re-authentication's is not the first).
  const forAccountId = waiting?.acquirerAccountId ?? acquirerAccountId;
  const authentication =
    waiting ??
    (await db().threeDsAuthentication.create({
      data: {
        id: newId(),
        paymentId,
        threeDsServerTransId,
        messageVersion: THREE_DS_MESSAGE_VERSION,
        state: "started",
        challengeIndicator,
        reason: reason ?? null,
        // What this authentication is for: its result authorizes only this card, amount and currency.
        ...recordedSubject({ card, amount: payment.amount, currency: payment.currency }),
      },
    }));
  let base = { authenticationId: authentication.id, threeDsServerTransId };
  const fail = async (transStatusReason: string, reason: string): Promise<StartAuthenticationResult> => {
    await db().threeDsAuthentication.update({
      where: { id: authentication.id },
      data: { state: "failed", transStatusReason, completedAt: new Date() },
    });
    // The operation log says why the payment was not authenticated (never card data: the reason names the step and the Erro).
    log("threeds").warn({ paymentId, authenticationId: authentication.id, reason }, `3-D Secure for payment ${paymentId} not performed`);
    return { ...base, kind: "not_authenticated", reason };
  };
  const currency = currencyForAReq(payment.currency);
  if (!currency) {
    await db().threeDsAuthentication.update({
      where: { id: authentication.id },
      data: { state: "failed", transStatusReason: "currency", completedAt: new Date() },
    });
    return { ...base, kind: "not_authenticated", reason: `3-D Secure does not support ${payment.currency}` };
  }
  const requestor = await threeDsRequestorFor({ paymentId, scheme: schemeFromPan(card.bin), accountId: forAccountId ?? undefined });
  // An authentication for a named account that the routing no longer tries (disabled since) cannot authorize anywhere.
  if (forAccountId && !requestor) return fail("account", "the acquirer account to authenticate for is no longer in the payment's routing");
  const pan = card.revealPan();
  let messageVersion: string;
  let threeDSCompInd: "Y" | "N" | "U";
  if (waiting) {
    // 3dsmethod.rst: Y when the ACS's notification arrived (lib/threeds/record-method-notification.ts), otherwise N.
    messageVersion = waiting.messageVersion;
    threeDSCompInd = waiting.methodCompletedAt ? "Y" : "N";
    if (!waiting.methodCompletedAt)
      log("threeds").info(
        { paymentId, authenticationId: waiting.id },
        `3DS Method of payment ${paymentId}: no notification from the ACS before the AReq (threeDSCompInd N)`,
      );
    await db().threeDsAuthentication.update({ where: { id: authentication.id }, data: { state: "started" } });
  } else {
    let cardRange;
    try {
      cardRange = await sendPreauth(pan, payment.mode);
    } catch (error) {
      const reason = error instanceof ThreeDsUnavailableError ? error.message : "3DS Server error";
      return fail(
        error instanceof ThreeDsUnavailableError && error.errorCode === "305" ? "not_enrolled" : "ds_unavailable",
        `/preauth: ${reason}`,
      );
    }
    const chosen = chooseMessageVersion(cardRange);
    if (!chosen) return fail("version", "/preauth: the card's ACS supports no protocol version this service speaks");
    messageVersion = chosen;
    // The browser /auth must use the id /preauth gave (preauth.rst).
    threeDsServerTransId = cardRange.threeDSServerTransID;
    base = { ...base, threeDsServerTransId };
    const methodUrl = cardRange.threeDSMethodURL;
    await db().threeDsAuthentication.update({
      where: { id: authentication.id },
      data: {
        threeDsServerTransId,
        messageVersion,
        acquirerAccountId: requestor?.acquirerAccountId,
        ...(methodUrl && methodNotificationUrl ? { methodUrl, state: "method" } : {}),
      },
    });
    if (methodUrl && methodNotificationUrl)
      return { ...base, kind: "method", methodUrl, methodData: threeDsMethodData(threeDsServerTransId, methodNotificationUrl) };
    // Without a browser to run it, a method URL means the method did not run: N; no method URL: U.
    threeDSCompInd = methodUrl ? "N" : "U";
  }
  let answer;
  try {
    answer = await sendAReq(
      {
        messageType: "AReq",
        messageVersion,
        threeDSServerTransID: threeDsServerTransId,
        deviceChannel: "02",
        messageCategory: "01",
        acctNumber: pan,
        cardExpiryDate: `${String(card.expYear % 100).padStart(2, "0")}${String(card.expMonth).padStart(2, "0")}`,
        purchaseAmount: payment.amount.toString(),
        purchaseCurrency: currency.code,
        purchaseExponent: String(currency.exponent),
        purchaseDate: purchaseDate(payment.createdAt),
        // 01 goods or service purchase; 01 payment transaction (areq_220).
        transType: "01",
        threeDSRequestorAuthenticationInd: "01",
        threeDSRequestorChallengeInd: challengeIndicator,
        threeDSRequestorURL: config().apiBaseUrls.cit,
        notificationURL: notificationUrl,
        threeDSCompInd,
        ...browserAReqFields(browser, messageVersion),
        ...cardholderAReqFields({ firstName: payment.customerFirstName, surname: payment.customerSurname, email: payment.customerEmail }),
        ...(requestor
          ? {
              acquirerBIN: requestor.acquirerBin,
              acquirerMerchantID: requestor.acquirerMerchantId,
              mcc: requestor.mcc,
              merchantCountryCode: requestor.merchantCountryCode,
              merchantName: requestor.merchantName,
            }
          : {}),
      },
      payment.mode,
    );
  } catch (error) {
    const reason = error instanceof ThreeDsUnavailableError ? error.message : "3DS Server error";
    return fail("ds_unavailable", `/auth: ${reason}`);
  }

  const challenge = answer.transStatus === "C" && Boolean(answer.acsURL);
  const authenticated = answer.transStatus === "Y" || answer.transStatus === "A";
  await db().threeDsAuthentication.update({
    where: { id: authentication.id },
    data: {
      ...authenticationResultColumns(answer),
      acsTransId: answer.acsTransID,
      challengeRequired: challenge,
      acsChallengeMandated: answer.acsChallengeMandated,
      state: challenge ? "challenge" : authenticated ? "completed" : "failed",
      completedAt: challenge ? undefined : new Date(),
    },
  });
  // The operation log: what was asked and what the issuer did (ids and indicators only, no card or cardholder data).
  log("threeds").info(
    {
      paymentId,
      authenticationId: authentication.id,
      challengeIndicator,
      transStatus: answer.transStatus,
      transStatusReason: answer.transStatusReason,
      acsChallengeMandated: answer.acsChallengeMandated,
      eci: answer.eci,
    },
    `3-D Secure ARes for payment ${paymentId}: transStatus ${answer.transStatus}`,
  );
  if (challenge) {
    const creq: CReq = {
      messageType: "CReq",
      messageVersion: answer.messageVersion,
      threeDSServerTransID: threeDsServerTransId,
      acsTransID: answer.acsTransID,
      challengeWindowSize,
    };
    return { ...base, kind: "challenge", acsUrl: answer.acsURL!, creq: encodeBase64Url(creq), acquirerAccountId: requestor?.acquirerAccountId };
  }
  if (authenticated && answer.eci) {
    return {
      ...base,
      kind: "authenticated",
      threeDs: {
        eci: answer.eci,
        authenticationValue: answer.authenticationValue,
        dsTransId: answer.dsTransID,
        threeDsServerTransId,
        acsTransId: answer.acsTransID,
        version: answer.messageVersion,
        transStatus: answer.transStatus as "Y" | "A",
        // The result came in the ARes (frictionless): Clearhaus wants to know which.
        messageType: "ARes",
        message: JSON.stringify(answer.message),
        acquirerAccountId: requestor?.acquirerAccountId,
        authenticationId: authentication.id,
      },
    };
  }
  return {
    ...base,
    kind: "not_authenticated",
    transStatus: answer.transStatus,
    reason: `transStatus ${answer.transStatus}${answer.transStatusReason ? ` (reason ${answer.transStatusReason})` : ""}`,
  };
}

/** The AReq may follow the method within /preauth's 80 s (preauth.rst); an older waiting authentication is not resumed. */
const METHOD_RESUME_LIMIT_MS = 75_000;

/** The authentication of this payment that waits for its 3DS Method, if it is still fresh enough to resume. */
async function methodAwaitingAReq(authenticationId: string, paymentId: string) {
  const row = await db().threeDsAuthentication.findFirst({ where: { id: authenticationId, paymentId, state: "method" } });
  return row && Date.now() - row.createdAt.getTime() < METHOD_RESUME_LIMIT_MS ? row : undefined;
}

/** threeDSMethodData (3dsmethod.rst): JSON of the /preauth id and our notification URL, Base64-URL without padding. */
export function threeDsMethodData(threeDsServerTransId: string, notificationUrl: string): string {
  return encodeBase64Url({ threeDSServerTransID: threeDsServerTransId, threeDSMethodNotificationURL: notificationUrl }).replace(/=+$/, "");
}
