// Starts EMV 3-D Secure for a payment as the 3dsecure.io API asks (preauth.rst, auth.rst): /preauth
// with the card number gives the threeDSServerTransID and the protocol versions, then /auth carries the
// browser AReq (lib/threeds/browser-areq.ts) and records the authentication. The answer is either a
// frictionless result or a challenge (ACS URL plus the CReq the browser posts in an iframe).
import { randomUUID } from "node:crypto";
import type { CardDetails } from "../cards/card-details";
import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { ThreeDsResult } from "../processors/types";
import { recordedSubject } from "./authentication-binding";
import { sendAReq, sendPreauth, ThreeDsUnavailableError } from "./ds-client";
import { browserAReqFields, chooseMessageVersion, purchaseDate, type CardholderBrowser } from "./browser-areq";
import { config } from "../env";
import { log } from "../observability/logger";
import { currencyForAReq, encodeBase64Url, type CReq, type TransStatus } from "./messages";
import { schemeFromPan } from "../cards/card-scheme";
import { threeDsRequestorFor } from "../processors/accounts/three-ds-requestor";
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
}

export type StartAuthenticationResult =
  | { kind: "authenticated"; authenticationId: string; threeDsServerTransId: string; threeDs: ThreeDsResult }
  | { kind: "challenge"; authenticationId: string; threeDsServerTransId: string; acsUrl: string; creq: string }
  /** N, R, U, I, or the DS could not be reached (transStatus undefined). */
  | { kind: "not_authenticated"; authenticationId: string; threeDsServerTransId: string; transStatus?: TransStatus; reason: string };

export async function startAuthentication({
  paymentId,
  card,
  notificationUrl,
  challengeWindowSize = "05",
  browser = {},
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
  // The hosted integration's preference (01 when the session named none): recorded with what the issuer did.
  const challengeIndicator = challengeIndicatorFor(payment.session?.hostedIntegration?.threeDsChallengePreference);
  // Until /preauth answers, the row carries an id of our own (it is replaced by the 3DS Server's).
  let threeDsServerTransId: string = randomUUID();
  const authentication = await db().threeDsAuthentication.create({
    data: {
      id: newId(),
      paymentId,
      threeDsServerTransId,
      messageVersion: THREE_DS_MESSAGE_VERSION,
      state: "started",
      challengeIndicator,
      // What this authentication is for: its result authorizes only this card, amount and currency.
      ...recordedSubject({ card, amount: payment.amount, currency: payment.currency }),
    },
  });
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
  const requestor = await threeDsRequestorFor({ paymentId, scheme: schemeFromPan(card.bin) });
  const pan = card.revealPan();
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
  const messageVersion = chooseMessageVersion(cardRange);
  if (!messageVersion) return fail("version", "/preauth: the card's ACS supports no protocol version this service speaks");
  // The browser /auth must use the id /preauth gave (preauth.rst).
  threeDsServerTransId = cardRange.threeDSServerTransID;
  base = { ...base, threeDsServerTransId };
  await db().threeDsAuthentication.update({
    where: { id: authentication.id },
    data: { threeDsServerTransId, messageVersion, acquirerAccountId: requestor?.acquirerAccountId },
  });
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
        // The 3DS Method is not run yet (docs/decisions.md): N when the card range has a method URL, U when it has none.
        threeDSCompInd: cardRange.threeDSMethodURL ? "N" : "U",
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
      acsTransId: answer.acsTransID,
      dsTransId: answer.dsTransID,
      transStatus: answer.transStatus,
      transStatusReason: answer.transStatusReason,
      eci: answer.eci,
      authenticationValue: answer.authenticationValue,
      resultMessage: answer.message as Prisma.InputJsonObject,
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
    return { ...base, kind: "challenge", acsUrl: answer.acsURL!, creq: encodeBase64Url(creq) };
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
