// goPay(), second step: the one request that carries the card. Checks the card, runs 3-D Secure as
// the session's set3ds asks, authorizes through the routing (processor list or the merchant's rule;
// with 3-D Secure, authenticated again for each next account, and stepped up when an issuer asks for
// authentication: docs/decisions/0192-re-authentication-when-routing-on.md),
// honours amount 0 (token only) and instantcapture, and ends the session: approved -> completion
// notification (spec 6.2); declined or failed -> the window stays open for another attempt.
// The card lives in memory only: CardDetails hides it from logs, and it is stored encrypted by
// the authorization (lib/payments/authorize-payment.ts); the security code is never stored.
import { CardDetails } from "../cards/card-details";
import { isRealCardInTest, isTestCardInLive } from "../routing/test-cards";
import type { Mode } from "../mode";
import { openStoredCard, STORED_CARD_SELECT } from "../cards/stored-card";
import { db } from "../db";
import { config } from "../env";
import { challengePagePath } from "./challenge-link";
import { methodNotificationUrl, methodPagePath } from "./method-link";
import { digitsOnly, isExpiryValid, isPanValid, isSecurityCodeValid, panScheme, parseMonth, parseYear } from "./card-input";
import { ERROR_TEXTS, type CardParts, type ErrorCode, type PayResult } from "./protocol";
import { sendCompletionNotification, storeCompletionNotification } from "../notifications/send-completion-notification";
import { dispatchNotification } from "../notifications/enqueue-notification";
import type { ThreeDsResult } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";
import { decideThreeDsStep } from "../threeds/three-ds-mode";
import { startAuthentication } from "../threeds/start-authentication";
import type { CardholderBrowser } from "../threeds/browser-areq";
import { authenticationMatches } from "../threeds/authentication-binding";
import type { TransStatus } from "../threeds/messages";
import { authorizePayment, type AuthorizationCardSource, type AuthorizePaymentResult } from "../payments/authorize-payment";
import { declineClassOf, routingAfter } from "../routing/decline-class";
import { nextRoutedAccount } from "../routing/accounts/three-ds-requestor";
import { captureInstantly } from "../payments/capture-instantly";
import { expireSession } from "./expire-session";
import { faultPoint } from "../faults/fault-point";
import { log } from "../observability/logger";
import { processorTimeoutMs } from "../acquirers/registry";
import { ACQUIRER_NAMES } from "../acquirers/names";

export interface PaySessionOptions {
  sessionId: string;
  paymentId: string;
  /** The values the fields collected; absent for a payment on behalf of stored card data. */
  card?: CardParts;
  /** The frames' origin binding (lib/cardholder/origin-binding.ts), for the 3-D Secure notification page. */
  binding?: string;
  customerIp?: string;
  /** The cardholder's browser, for the 3-D Secure AReq. */
  browser?: CardholderBrowser;
  now?: Date;
}

type SessionRow = NonNullable<Awaited<ReturnType<typeof loadSession>>>;

function loadSession(sessionId: string) {
  return db().paymentSession.findUnique({
    where: { id: sessionId },
    select: {
      id: true,
      mode: true,
      status: true,
      expiresAt: true,
      amount: true,
      set3ds: true,
      rule: true,
      processors: true,
      instantCapture: true,
      paymentId: true,
      onBehalfOfPaymentId: true,
      payment: { select: { status: true } },
    },
  });
}

/**
 * Card testing: a stolen list of numbers tried one after another through one payment window. Each
 * processor call and each 3-D Secure authentication counts; with three processors and 3-D Secure a
 * window allows at least three full attempts.
 */
export const MAX_ATTEMPTS_PER_PAYMENT = 12;

const failed = (paymentid: string | null, errorcode: ErrorCode): PayResult => ({
  result: "failed",
  paymentid,
  errorcode,
  errortext: ERROR_TEXTS[errorcode],
});

/**
 * The spec's missing-field codes first, then what is present but wrong; in test mode, a number that
 * is not a published test card is refused (TEST_CARD_REQUIRED): test payments never carry real cards.
 */
export function checkCardParts(
  card: CardParts | undefined,
  now: Date = new Date(),
  mode: Mode = "live",
): { card: CardDetails } | { error: ErrorCode } {
  const pan = digitsOnly(card?.pan ?? "");
  const month = card?.expmonth ? parseMonth(card.expmonth) : undefined;
  const year = card?.expyear ? parseYear(card.expyear) : undefined;
  const code = digitsOnly(card?.securitycode ?? "");
  if (!pan) return { error: "PAN_MISSING" };
  if (!card?.expmonth) return { error: "EXPMONTH_MISSING" };
  if (!card?.expyear) return { error: "EXPYEAR_MISSING" };
  if (!code) return { error: "CVC_MISSING" };
  if (!isPanValid(pan)) return { error: "PAN_INVALID" };
  if (isRealCardInTest(mode, pan)) return { error: "TEST_CARD_REQUIRED" };
  if (!isExpiryValid(month, year, now)) return { error: "EXPIRY_INVALID" };
  if (!isSecurityCodeValid(code, panScheme(pan))) return { error: "CVC_INVALID" };
  return { card: new CardDetails({ pan, expMonth: month!, expYear: year!, securityCode: code }) };
}

/** The stored card behind the payment a session pays on behalf of. */
async function storedCardSource(parentPaymentId: string): Promise<{ source: AuthorizationCardSource; card: CardDetails } | undefined> {
  const parent = await db().payment.findUnique({
    where: { id: parentPaymentId },
    select: { storedCard: { select: STORED_CARD_SELECT } },
  });
  const stored = parent?.storedCard;
  if (!stored) return undefined;
  return { source: { kind: "stored", storedCardId: stored.id }, card: openStoredCard(stored) };
}

/**
 * A challenge this payment completed and has not yet authorized with, for exactly this card (PAN and
 * expiry), amount and currency: another card, or the same number with another expiry, authenticates
 * anew (security item 3).
 */
async function unusedChallengeResult(paymentId: string, card: CardDetails): Promise<ThreeDsResult | undefined> {
  const authentication = await db().threeDsAuthentication.findFirst({ where: { paymentId }, orderBy: { createdAt: "desc" } });
  if (!authentication || authentication.state !== "completed" || !authentication.challengeRequired || !authentication.eci) return undefined;
  if (authentication.transStatus !== "Y" && authentication.transStatus !== "A") return undefined;
  const payment = await db().payment.findUnique({ where: { id: paymentId }, select: { amount: true, currency: true } });
  if (!payment || !authenticationMatches(authentication, { card, amount: payment.amount, currency: payment.currency })) return undefined;
  const usedAfter = await db().operation.count({
    where: { paymentId, type: "authorize", createdAt: { gt: authentication.completedAt ?? authentication.createdAt } },
  });
  if (usedAfter > 0) return undefined;
  return {
    eci: authentication.eci,
    authenticationValue: authentication.authenticationValue ?? undefined,
    dsTransId: authentication.dsTransId ?? undefined,
    threeDsServerTransId: authentication.threeDsServerTransId,
    acsTransId: authentication.acsTransId ?? undefined,
    version: authentication.messageVersion,
    transStatus: authentication.transStatus,
    // A completed challenge: its result came in the RReq.
    messageType: "RReq",
    message: authentication.resultMessage ? JSON.stringify(authentication.resultMessage) : undefined,
    acquirerAccountId: authentication.acquirerAccountId ?? undefined,
    authenticationId: authentication.id,
  };
}

/** The authentication of this payment waiting for its 3DS Method, when it was for exactly this card, amount and currency. */
async function methodAwaitingCard(
  paymentId: string,
  card: CardDetails,
): Promise<{ authenticationId: string; reason?: "routing" | "step-up"; acquirerAccountId?: string } | undefined> {
  const authentication = await db().threeDsAuthentication.findFirst({ where: { paymentId }, orderBy: { createdAt: "desc" } });
  if (authentication?.state !== "method") return undefined;
  const payment = await db().payment.findUnique({ where: { id: paymentId }, select: { amount: true, currency: true } });
  if (!payment || !authenticationMatches(authentication, { card, amount: payment.amount, currency: payment.currency })) return undefined;
  const reason = authentication.reason === "routing" || authentication.reason === "step-up" ? authentication.reason : undefined;
  return { authenticationId: authentication.id, reason, acquirerAccountId: authentication.acquirerAccountId ?? undefined };
}

export async function paySession({
  sessionId,
  paymentId,
  card: parts,
  binding,
  customerIp,
  browser,
  now = new Date(),
}: PaySessionOptions): Promise<PayResult> {
  const session = await loadSession(sessionId);
  if (!session || session.paymentId !== paymentId) return failed(null, "PAYMENT_ERROR");
  if (session.status === "COMPLETED") {
    const approved = session.payment && ["AUTHORIZED", "CAPTURED", "TOKENIZED"].includes(session.payment.status);
    return approved ? { result: "approved", paymentid: paymentId } : failed(paymentId, "PAYMENT_ERROR");
  }
  if (session.status === "TIMED_OUT" || session.expiresAt.getTime() <= now.getTime()) return { result: "timeout", paymentid: paymentId };

  let source: AuthorizationCardSource;
  let card: CardDetails;
  if (session.onBehalfOfPaymentId) {
    const stored = await storedCardSource(session.onBehalfOfPaymentId);
    if (!stored) return failed(paymentId, "PAYMENT_ERROR");
    ({ source, card } = stored);
  } else {
    const checked = checkCardParts(parts, now, session.mode);
    if ("error" in checked) return failed(paymentId, checked.error);
    card = checked.card;
    source = { kind: "card", card };
  }

  const attempts =
    (await db().operation.count({ where: { paymentId, type: "authorize" } })) +
    (await db().threeDsAuthentication.count({ where: { paymentId } }));
  if (attempts >= MAX_ATTEMPTS_PER_PAYMENT && !(await unusedChallengeResult(paymentId, card)))
    return failed(paymentId, "TOO_MANY_ATTEMPTS");

  // One attempt at a time: the window is PROCESSING, leased to this request, while it runs. A
  // request that dies leaves the lease to run out; the session finisher then ends the window.
  const claimed = await db().paymentSession.updateMany({
    where: { id: sessionId, status: "OPEN", expiresAt: { gt: now } },
    data: { status: "PROCESSING", leaseUntil: new Date(Date.now() + goPayLeaseMs(session.processors.length, session.instantCapture)) },
  });
  if (claimed.count === 0) {
    const current = await loadSession(sessionId);
    return current?.status === "PROCESSING" ? failed(paymentId, "PAYMENT_IN_PROGRESS") : { result: "timeout", paymentid: paymentId };
  }

  let result: PayResult;
  try {
    result = await runPayment({ session, paymentId, source, card, binding, customerIp, browser });
  } catch (error) {
    await letGo(sessionId, paymentId);
    throw error;
  }
  if (result.result === "approved") {
    // The session's end and its completion notification commit together (outbox); sent after.
    try {
      const notificationId = await db().$transaction(async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "PaymentSession" WHERE "id" = ${sessionId} FOR UPDATE`;
        faultPoint("session.complete");
        await tx.paymentSession.update({
          where: { id: sessionId },
          data: { status: "COMPLETED", completedAt: new Date(), leaseUntil: null },
        });
        return storeCompletionNotification({ tx, sessionId, status: "approved" });
      });
      if (notificationId) await dispatchNotification(notificationId);
    } catch (error) {
      // The payment is approved (recorded by the authorization): the cardholder is told so, and the
      // session finisher completes the window and sends its notification.
      log("cardholder").error(
        { err: error },
        `session ${sessionId}: the completion after an approval failed; the session finisher completes it`,
      );
      await releaseLease(sessionId).catch(() => undefined);
    }
    return result;
  }
  if (session.instantCapture === 1 && (await instantCaptureVoided(paymentId))) {
    // instantcapture 1 whose capture failed, its authorization voided: the payment is over and
    // cannot be made again, so the window ends now with its completion (not approved, the
    // capture's response code), as the session finisher ends it when it voids (decision 0156).
    await endWindowUnpaid(sessionId);
    return result;
  }
  if (await needsFinisher(paymentId)) {
    // Not over: an attempt's outcome is unknown, or an approved payment is not captured or voided as
    // instantcapture asked. The window stays PROCESSING for the session finisher.
    await releaseLease(sessionId);
    return result;
  }
  await db().paymentSession.updateMany({ where: { id: sessionId, status: "PROCESSING" }, data: { status: "OPEN", leaseUntil: null } });
  // The window may have closed while the acquirer answered; its time-out function skipped it then.
  if (Date.now() >= session.expiresAt.getTime() && (await expireSession({ sessionId }))) {
    await sendCompletionNotification({ sessionId, status: "timeout" });
    return { result: "timeout", paymentid: paymentId };
  }
  return result;
}

/**
 * The longest a goPay() request may work on its window: for each processor its 3-D Secure
 * authentication (a re-authentication when the routing goes on), its call and its look-up, then the
 * instant capture and its void with theirs, at the longest configured time-out.
 */
export function goPayLeaseMs(processors: number, instantCapture: number): number {
  const longest = Math.max(...ACQUIRER_NAMES.map((name) => processorTimeoutMs(name)));
  const calls = 3 * (processors || ACQUIRER_NAMES.length) + (instantCapture ? 4 : 0);
  return (calls + 1) * longest + 30_000;
}

/** Hands the PROCESSING window to the session finisher now (instead of when its lease runs out). */
async function releaseLease(sessionId: string): Promise<void> {
  await db().paymentSession.updateMany({ where: { id: sessionId, status: "PROCESSING" }, data: { leaseUntil: new Date() } });
}

/** True when the payment is not over: an attempt unknown, or approved and not yet captured or voided as instantcapture asks. */
async function needsFinisher(paymentId: string): Promise<boolean> {
  const payment = await db().payment.findUnique({
    where: { id: paymentId },
    select: { status: true, operations: { where: { status: "pending" }, select: { type: true } } },
  });
  if (!payment) return false;
  return payment.operations.length > 0 || ["AUTHORIZED", "CAPTURED", "TOKENIZED"].includes(payment.status);
}

/** The payment's authorization was voided after its instant capture failed. */
async function instantCaptureVoided(paymentId: string): Promise<boolean> {
  const payment = await db().payment.findUnique({ where: { id: paymentId }, select: { status: true } });
  return payment?.status === "VOIDED";
}

/** Completes a PROCESSING window whose payment failed for good, with its completion notification (outbox). */
async function endWindowUnpaid(sessionId: string): Promise<void> {
  const notificationId = await db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "PaymentSession" WHERE "id" = ${sessionId} AND "status" = 'PROCESSING' FOR UPDATE`;
    if (locked.length === 0) return null;
    await tx.paymentSession.update({ where: { id: sessionId }, data: { status: "COMPLETED", completedAt: new Date(), leaseUntil: null } });
    return storeCompletionNotification({ tx, sessionId, status: "failed" });
  });
  if (notificationId) await dispatchNotification(notificationId);
}

/** After an exception: a payment that may have moved goes to the finisher, else the window reopens. */
async function letGo(sessionId: string, paymentId: string): Promise<void> {
  if (await needsFinisher(paymentId).catch(() => true)) await releaseLease(sessionId).catch(() => undefined);
  else await db().paymentSession.updateMany({ where: { id: sessionId, status: "PROCESSING" }, data: { status: "OPEN", leaseUntil: null } });
}

interface RunPaymentOptions {
  session: SessionRow;
  paymentId: string;
  source: AuthorizationCardSource;
  card: CardDetails;
  binding?: string;
  customerIp?: string;
  browser?: CardholderBrowser;
}

async function runPayment({ session, paymentId, source, card, binding, customerIp, browser }: RunPaymentOptions): Promise<PayResult> {
  /** One pass of the routing (with 3-D Secure: the authentication's account only), then instantcapture. */
  const authorize = async (
    threeDs: ThreeDsResult | undefined,
    stepUpOnAuthenticationRequired = false,
  ): Promise<{ pay: PayResult; authorization: AuthorizePaymentResult }> => {
    const authorization = await authorizePayment({
      paymentId,
      source,
      processors: session.processors as AcquirerName[],
      rule: session.rule,
      threeDs,
      customerIp,
      stepUpOnAuthenticationRequired,
    });
    const done = (pay: PayResult) => ({ pay, authorization });
    // Unknown: the card may be held; nothing is routed further and the cardholder must not pay again.
    if (authorization.status === "pending") return done(failed(paymentId, "PAYMENT_PENDING"));
    if (authorization.status !== "approved")
      return done(failed(paymentId, authorization.status === "declined" ? "PAYMENT_DECLINED" : "PAYMENT_ERROR"));
    // Amount 0 ends here: the zero-amount authorization verified the card and the payment is TOKENIZED.
    if (session.amount > 0n && (session.instantCapture === 1 || session.instantCapture === 2)) {
      const capture = await captureInstantly({ paymentId, voidOnFailure: session.instantCapture === 1 });
      // instantcapture 1 is approved only when the money was taken: after a failed capture the
      // authorization is voided (or its void retried by the follow-up job, which notifies the merchant).
      // A capture whose outcome is unknown is neither: the cardholder is told it is pending.
      if (session.instantCapture === 1 && capture.captureUnknown) return done(failed(paymentId, "PAYMENT_PENDING"));
      if (capture.voided || (session.instantCapture === 1 && !capture.captured)) return done(failed(paymentId, "PAYMENT_ERROR"));
    }
    return done({ result: "approved", paymentid: paymentId });
  };
  const authenticationFailed = async (): Promise<PayResult> => {
    await db().payment.update({ where: { id: paymentId }, data: { status: "FAILED" } });
    return failed(paymentId, "AUTHENTICATION_FAILED");
  };
  /**
   * A re-authentication (for the next account, or a step-up) that gave no result: the payment keeps
   * the last acquirer's answer, and says why nothing more was tried (never a second hold).
   */
  const reauthenticationFailed = async (reason: ReauthenticationReason, why: string, acquirerAccountId?: string): Promise<PayResult> => {
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true } });
    const account = acquirerAccountId
      ? await db().acquirerAccount.findUnique({ where: { id: acquirerAccountId }, select: { processor: true } })
      : null;
    const at = account ? ` for ${account.processor}` : "";
    const stopped =
      reason === "step-up"
        ? `routing stopped: the 3-D Secure step-up${at} gave no authentication (${why}); the payment keeps the issuer's decline`
        : `routing stopped: 3-D Secure${at} gave no authentication (${why}), so ${account?.processor ?? "the next processor"} was not tried`;
    await db().payment.update({ where: { id: paymentId }, data: { routingStopped: stopped } });
    log("cardholder").info({ paymentId, reason }, `payment ${paymentId}: ${stopped}`);
    return failed(paymentId, payment.status === "DECLINED" ? "PAYMENT_DECLINED" : "PAYMENT_ERROR");
  };

  const notificationUrl = `${config().apiBaseUrls.cit}/dynamic/${session.id}/payments/${paymentId}/challenge-notify${binding ? `?b=${encodeURIComponent(binding)}` : ""}`;

  /**
   * Authorizes with a 3-D Secure result at the account it was made for. Declined-soft or failed
   * there (with its outcome known), the routing goes on as the seed says: authenticated again for
   * the next account, never with this account's result (decision 0192).
   */
  const authorizeAuthenticated = async (threeDs: ThreeDsResult): Promise<PayResult> => {
    const { pay, authorization } = await authorize(threeDs);
    if (authorization.status !== "declined" && authorization.status !== "failed") return pay;
    const last = authorization.attempts.at(-1);
    if (!last || routingAfter(declineClassOf(last.result)) !== "next") return pay;
    const next = await nextRoutedAccount(paymentId, last.acquirerAccountId);
    if (!next) return pay;
    return authenticate({ acquirerAccountId: next.accountId, reason: "routing" });
  };

  /**
   * Starts (or resumes after its 3DS Method) an authentication and acts on the ARes as set3ds says.
   * A re-authentication acts as FORCE_3DS: the payment is already a 3-D Secure one (or the issuer
   * asked for authentication), so a challenge is shown in the same window and no result ends it.
   */
  const authenticate = async ({
    acquirerAccountId,
    reason,
    resume,
  }: {
    acquirerAccountId?: string;
    reason?: ReauthenticationReason;
    resume?: { authenticationId: string };
  }): Promise<PayResult> => {
    // The 3DS Method (docs/decisions/0115): a first pass stops after /preauth when the card range has a
    // method URL; the controller runs the method and sends the card again, which resumes here.
    const started = await startAuthentication({
      paymentId,
      card,
      notificationUrl,
      browser,
      methodNotificationUrl: methodNotificationUrl(session.id, paymentId, binding),
      resume,
      acquirerAccountId,
      reason,
    });
    if (started.kind === "method") return { result: "method", paymentid: paymentId, url: methodPagePath(session.id, paymentId) };
    const challenge: PayResult | undefined =
      started.kind === "challenge"
        ? { result: "challenge", paymentid: paymentId, url: challengePagePath(session.id, paymentId, started) }
        : undefined;
    // No answer from the directory server counts as U (authentication unavailable).
    const ares: TransStatus =
      started.kind === "authenticated" ? started.threeDs.transStatus : started.kind === "challenge" ? "C" : (started.transStatus ?? "U");
    const step = decideThreeDsStep({ mode: reason ? "FORCE_3DS" : session.set3ds, at: { ares } });
    const notAuthenticated = (why: string) => (reason ? reauthenticationFailed(reason, why, acquirerAccountId) : authenticationFailed());
    const why = started.kind === "not_authenticated" ? started.reason : `transStatus ${ares}`;
    switch (step.step) {
      case "authorize_with_3ds":
        return started.kind === "authenticated" ? authorizeAuthenticated(started.threeDs) : notAuthenticated(why);
      case "challenge":
        return challenge ?? notAuthenticated(why);
      case "fail":
        return notAuthenticated(why);
      case "authorize_without_3ds": {
        // FALLBACK_3DS's first try: without 3-D Secure through the routing, which stops at an
        // authentication-required answer for the step-up.
        const { pay, authorization } = await authorize(undefined, true);
        if (authorization.status !== "declined" && authorization.status !== "failed") return pay;
        const last = authorization.attempts.at(-1);
        if (!last) return pay;
        const next = decideThreeDsStep({ mode: session.set3ds, at: { declinedWithout3ds: declineClassOf(last.result) } });
        if (next.step !== "challenge") return pay;
        // Step-up at the account whose issuer asked: the challenge the ARes offered when it was for
        // that account, else an authentication for it with the challenge mandated.
        if (challenge && started.kind === "challenge" && started.acquirerAccountId === last.acquirerAccountId) return challenge;
        return authenticate({ acquirerAccountId: last.acquirerAccountId, reason: "step-up" });
      }
      default:
        return (await authorize(undefined)).pay;
    }
  };

  const afterChallenge = await unusedChallengeResult(paymentId, card);
  if (afterChallenge) return authorizeAuthenticated(afterChallenge);
  // A test card in live mode is declined by the authorization before any acquirer is called; no
  // directory server is asked about it either.
  if (isTestCardInLive(session.mode, card)) return (await authorize(undefined)).pay;

  const first = decideThreeDsStep({ mode: session.set3ds, at: "start" });
  if (first.step !== "authenticate") return (await authorize(undefined)).pay;
  const resume = await methodAwaitingCard(paymentId, card);
  return authenticate(resume ? { resume: { authenticationId: resume.authenticationId }, reason: resume.reason, acquirerAccountId: resume.acquirerAccountId } : {});
}

type ReauthenticationReason = "routing" | "step-up";
