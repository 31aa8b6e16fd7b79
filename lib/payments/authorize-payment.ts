// Authorizes a payment through the routing: tries the merchant's acquirer accounts in the routing's
// processor order until one approves, recording every attempt as an authorize Operation with the
// account it went out under, then updates the Payment (its processor and account: every follow-up
// goes back to that account).
//
// Every processor in the order is tried when the one before declines or fails, time-outs included
// (the spec's routing rule). A time-out is recorded as a failed attempt whose outcome is unknown
// (failure "indeterminate"), never as a decline.
import type { CardDetails } from "../cards/card-details";
import { derivedPar, openStoredCard, STORED_CARD_SELECT, storeCard } from "../cards/stored-card";
import { db, type Tx } from "../db";
import { newId } from "../ids";
import { operationResultFields } from "./operation-result-fields";
import { approvedAttemptOf } from "./apply-approved-attempt";
import {
  AuthorizationOutcomeUnknownError,
  resolvePendingAuthorizations,
  type ResolvedAuthorization,
} from "./resolve-pending-authorizations";
import { markOutcomeUnknown, settleUnknownOperation } from "./settle-unknown-operation";
import { tryAcquirerAccounts, type AccountAttempt } from "./try-acquirer-accounts";
import { isOutcomeUnknown } from "../routing/lookup-operation-outcome";
import type { PaymentStatus } from "../generated/prisma/enums";
import { resolveRouting } from "../routing/routing";
import { isTestCardInLive } from "../routing/test-cards";
import { declineClassOf, routingAfter, routingStoppedReason } from "../routing/decline-class";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { stopMerchantInitiatedPayments } from "./stop-merchant-initiated-payments";
import type { AcquirerName } from "../acquirers/names";
import { RESPONSE_CODES, type CredentialOnFile, type MitPaymentType, type ProcessorResult, type ThreeDsResult } from "../acquirers/contract";

/** Where the card comes from: card data in memory (cardholder flow) or a stored card (MIT, payment on behalf). */
export type AuthorizationCardSource =
  | { kind: "card"; card: CardDetails; /** keep the card for later payments (default true) */ store?: boolean }
  | { kind: "stored"; storedCardId: string };

export interface AuthorizePaymentOptions {
  /** The Payment row (status PENDING, or DECLINED/FAILED when FALLBACK_3DS retries with 3-D Secure). */
  paymentId: string;
  source: AuthorizationCardSource;
  /** The request's `processor` list, tried in order; empty or absent: the merchant's routing for `rule`. */
  processors?: AcquirerName[];
  /** 1 primary (default), 2 secondary. */
  rule?: number;
  /** Merchant-initiated payment (api/mit). */
  mit?: { paymentType: MitPaymentType; parentPaymentId?: string };
  /** 3-D Secure outcome (transStatus Y or A) to send to the acquirer. */
  threeDs?: ThreeDsResult;
  /**
   * FALLBACK_3DS's first try without 3-D Secure: an authentication-required answer ends the routing
   * there, for a 3-D Secure step-up at the same account (decision 0192), instead of going on.
   */
  stepUpOnAuthenticationRequired?: boolean;
  /** The `responseid` of the merchant request, written on each operation. */
  responseId?: string;
  customerIp?: string;
  /** Overrides the configured per-call time-out in milliseconds (tests, CLI). */
  timeoutMs?: number;
  /**
   * Called in the transaction that records the payment's final state, so that what the caller
   * writes about the outcome (its notification: the outbox) commits with it. Not called when the
   * payment was already authorized before (the recorded result is answered).
   */
  recordOutcome?: (tx: Tx, result: AuthorizePaymentResult) => Promise<void>;
}

export interface AuthorizationAttempt {
  operationId: string;
  processor: AcquirerName;
  acquirerAccountId: string;
  routingAttempt: number;
  result: ProcessorResult;
}

export interface AuthorizePaymentResult {
  /** pending: an attempt's outcome is unknown and unresolved; nothing is routed further and nothing notified yet. */
  status: "approved" | "declined" | "failed" | "pending";
  /** The processor that approved, or the last one tried. */
  processor?: AcquirerName;
  responsecode: string;
  authorizationcode?: string;
  eci?: string;
  par?: string;
  attempts: AuthorizationAttempt[];
}

export class PaymentNotAuthorizableError extends Error {
  constructor(paymentId: string, status: PaymentStatus) {
    super(`payment ${paymentId} cannot be authorized in status ${status}`);
    this.name = "PaymentNotAuthorizableError";
  }
}

const AUTHORIZABLE: readonly PaymentStatus[] = ["PENDING", "DECLINED", "FAILED"];
const ALREADY_AUTHORIZED: readonly PaymentStatus[] = ["AUTHORIZED", "CAPTURED", "REFUNDED", "VOIDED", "TOKENIZED"];

/** A repeated call for an authorized payment (e.g. a retried job) answers what was recorded. */
async function recordedResult(paymentId: string): Promise<AuthorizePaymentResult> {
  const operations = await db().operation.findMany({
    where: { paymentId, type: "authorize" },
    orderBy: [{ routingAttempt: "asc" }, { createdAt: "asc" }],
    select: {
      id: true,
      processor: true,
      acquirerAccountId: true,
      routingAttempt: true,
      status: true,
      responseCode: true,
      authorizationCode: true,
      processorReference: true,
      eci: true,
    },
  });
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { storedCard: { select: { par: true } } } });
  const approved = operations.find((operation) => operation.status === "approved");
  return {
    status: "approved",
    processor: approved?.processor ?? undefined,
    responsecode: approved?.responseCode ?? RESPONSE_CODES.approved,
    authorizationcode: approved?.authorizationCode ?? undefined,
    eci: approved?.eci ?? undefined,
    par: payment.storedCard?.par ?? undefined,
    attempts: operations
      .filter((operation) => operation.processor)
      .map((operation) => ({
        operationId: operation.id,
        processor: operation.processor!,
        acquirerAccountId: operation.acquirerAccountId ?? "",
        routingAttempt: operation.routingAttempt,
        result: {
          status: operation.status === "pending" ? "failed" : operation.status,
          responsecode: operation.responseCode ?? RESPONSE_CODES.systemError,
          authorizationcode: operation.authorizationCode ?? undefined,
          processorReference: operation.processorReference ?? undefined,
        },
      })),
  };
}

const MIT_TYPES = ["incremental", "scheduled", "unscheduled"];

async function credentialOnFile(
  options: AuthorizePaymentOptions,
  acquirerAccountId: string,
  parentPaymentId: string | null,
): Promise<CredentialOnFile | undefined> {
  if (options.mit) {
    const parentId = options.mit.parentPaymentId;
    // The series' first payment: the cardholder's, whose network transaction id later MITs name
    // (Finaro g6 "must be the first transaction's z50").
    const first = parentId
      ? await db().operation.findFirst({
          where: { paymentId: parentId, type: "authorize", status: "approved" },
          orderBy: { createdAt: "desc" },
          select: { schemeTransactionId: true },
        })
      : null;
    // The latest approved authorization of the series on this very account (the first payment or
    // an earlier MIT of it): Clearhaus' series[previous][id]. An acquirer's own id means something
    // only on the account that made it.
    const latest = parentId
      ? await db().operation.findFirst({
          where: {
            type: "authorize",
            status: "approved",
            acquirerAccountId,
            processorReference: { not: null },
            OR: [{ paymentId: parentId }, { payment: { parentPaymentId: parentId, paymentType: { in: MIT_TYPES } } }],
            paymentId: { not: options.paymentId },
          },
          orderBy: { createdAt: "desc" },
          select: { processorReference: true },
        })
      : null;
    return {
      initiator: "merchant",
      paymentType: options.mit.paymentType,
      previousSchemeTransactionId: first?.schemeTransactionId ?? undefined,
      previousProcessorReference: latest?.processorReference ?? undefined,
    };
  }
  if (options.source.kind === "card") return { initiator: "cardholder", storeCredential: options.source.store !== false };
  // The cardholder pays with card data stored earlier (a payment on behalf of a stored payment). An
  // acquirer's own series id (Bambora NA) means something only on the account that started the series.
  const first = parentPaymentId
    ? await db().operation.findFirst({
        where: { paymentId: parentPaymentId, type: "authorize", status: "approved", acquirerAccountId, credentialSeriesId: { not: null } },
        orderBy: { createdAt: "desc" },
        select: { credentialSeriesId: true },
      })
    : null;
  return {
    initiator: "cardholder",
    storeCredential: false,
    usesStoredCredential: true,
    ...(first?.credentialSeriesId ? { previousCredentialSeriesId: first.credentialSeriesId } : {}),
  };
}

const PAYMENT_SELECT = {
  id: true,
  merchantId: true,
  mode: true,
  amount: true,
  currency: true,
  status: true,
  storedCardId: true,
  paymentType: true,
  textOnStatement: true,
  parentPaymentId: true,
  customerEmail: true,
  customerFirstName: true,
  customerSurname: true,
  customerIpAddress: true,
} as const;

type AuthorizablePayment = Awaited<ReturnType<typeof loadPayment>>;

function loadPayment(paymentId: string) {
  return db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: PAYMENT_SELECT });
}

export async function authorizePayment(options: AuthorizePaymentOptions): Promise<AuthorizePaymentResult> {
  const { paymentId, threeDs } = options;
  const payment = await loadPayment(paymentId);
  if (ALREADY_AUTHORIZED.includes(payment.status)) return recordedResult(paymentId);
  if (!AUTHORIZABLE.includes(payment.status)) throw new PaymentNotAuthorizableError(paymentId, payment.status);
  const earlier = await settleEarlierAttempts(payment, options);
  if (earlier) return earlier;

  const { card, storedCardId, par: derived } = await cardOf(payment, options.source);
  let par = derived;
  // A live payment with a published test card is declined here, before any acquirer is called: one
  // authorization attempt without a processor says why (docs/decisions/0108-test-mode-and-live-mode.md).
  const testCardInLive = isTestCardInLive(payment.mode, card);
  // The accounts as they are now: one disabled since the session or MIT was accepted is skipped, and
  // with none left the payment fails here, before any acquirer is called.
  const plan = testCardInLive
    ? undefined
    : await resolveRouting({
        merchantId: payment.merchantId,
        mode: payment.mode,
        currency: payment.currency,
        requested: options.processors,
        rule: options.rule,
        purpose: options.mit ? "mit" : "payment",
      });
  // A 3-D Secure result belongs to the acquirer account its AReq named (acquirerBIN, acquirerMerchantID):
  // it is never sent to another account (docs/decisions/0110-three-d-secure-through-a-3ds-server-as-3dsecure-io.md).
  // The cardholder flow routes on by authenticating again for the next account (decision 0192).
  const routed = plan?.kind === "route" ? plan.accounts : [];
  const order = threeDs?.acquirerAccountId ? routed.filter((account) => account.accountId === threeDs.acquirerAccountId) : routed;
  const earlierAttempts = await db().operation.count({ where: { paymentId, type: "authorize" } });
  const note = await authenticationNote(threeDs);
  const attempts: AuthorizationAttempt[] = [];
  let unresolved = false;
  /** Why the routing ended before the last account (a declined-hard or stop-recurring answer): the payment shows it. */
  let routingStopped: string | undefined;

  await tryAcquirerAccounts({
    accounts: order,
    timeoutMs: options.timeoutMs,
    onError: "rethrow",
    faults: { beforeCall: "authorize.before-call", afterCall: "authorize.after-call" },
    begin: (account, index) => beginAttempt(payment, options, account, earlierAttempts + index + 1, note),
    call: async ({ connector, descriptor }, { accountId, operationId }) =>
      connector.authorize({
        operationId,
        paymentId,
        amount: payment.amount,
        currency: payment.currency,
        card,
        credentialOnFile: await credentialOnFile(options, accountId, payment.parentPaymentId),
        threeDs,
        textOnStatement: payment.textOnStatement ?? undefined,
        // The account's descriptor: the statement text without one of the payment's own.
        descriptor,
        // The cardholder's browser (CIT), else the `customer.ipaddress` of the request (MIT).
        customerIp: options.customerIp ?? payment.customerIpAddress ?? undefined,
        customer: {
          email: payment.customerEmail ?? undefined,
          firstName: payment.customerFirstName ?? undefined,
          surname: payment.customerSurname ?? undefined,
        },
      }),
    conclude: async (attempt, answer) => {
      const settled = await concludeAttempt(attempt, answer, threeDs);
      attempts.push({
        operationId: attempt.operationId,
        processor: attempt.processor,
        acquirerAccountId: attempt.accountId,
        routingAttempt: earlierAttempts + attempt.index + 1,
        result: settled ?? answer,
      });
      if (!settled) {
        unresolved = true;
        return "stop";
      }
      // The routing acts on the answer's class (decision 0190): a decline the card schemes forbid
      // re-attempting ends it here, even with accounts left to try.
      const declineClass = declineClassOf(settled);
      if (declineClass === "authentication-required" && options.stepUpOnAuthenticationRequired) return "stop";
      if (routingAfter(declineClass) === "next") return "next";
      // What the routing leaves untried: the accounts after this one in the whole plan (a 3-D Secure
      // attempt is tried at its own account only; the cardholder flow would authenticate for the next).
      const position = routed.findIndex((account) => account.accountId === attempt.accountId);
      const untried = [...new Set(routed.slice(position + 1).map((account) => account.processor))];
      if ((declineClass === "declined-hard" || declineClass === "stop-recurring") && untried.length > 0) {
        routingStopped = routingStoppedReason({
          processor: attempt.processor,
          responsecode: settled.responsecode,
          acquirerCode: settled.acquirerCode,
          declineClass,
          untried,
        });
      }
      return "stop";
    },
  });

  if (unresolved) {
    // Not routed further and not final: the payment stays PENDING (no notification yet).
    const pendingAttempt = attempts.at(-1)!;
    await db().payment.update({
      where: { id: paymentId },
      data: { processor: pendingAttempt.processor, acquirerAccountId: pendingAttempt.acquirerAccountId ?? null, storedCardId },
    });
    return { status: "pending", processor: pendingAttempt.processor, responsecode: pendingAttempt.result.responsecode, par, attempts };
  }

  const refusal = testCardInLive ? await declineTestCardInLive(paymentId, payment, options, earlierAttempts + 1) : undefined;
  const last = attempts.at(-1);
  const lastResult = last?.result ?? refusal;
  const approved = last?.result.status === "approved" ? last : undefined;
  if (approved?.result.par && storedCardId) {
    // The scheme's own PAR (returned by the acquirer) replaces the one the gateway derived.
    await db().storedCard.update({ where: { id: storedCardId }, data: { par: approved.result.par } });
    par = approved.result.par;
  }
  const status: PaymentStatus = approved
    ? payment.amount === 0n
      ? "TOKENIZED"
      : "AUTHORIZED"
    : lastResult?.status === "declined"
      ? "DECLINED"
      : "FAILED";
  const settled: AuthorizePaymentResult = {
    status: approved ? "approved" : lastResult?.status === "declined" ? "declined" : "failed",
    processor: last?.processor,
    // No account fitted (all disabled or removed since the request was accepted): nothing was sent.
    responsecode: lastResult?.responsecode ?? RESPONSE_CODES.invalidTransaction,
    authorizationcode: approved?.result.authorizationcode,
    eci: approved?.result.eci ?? threeDs?.eci,
    par,
    attempts,
  };
  // A cardholder's stop order (stop-recurring) marks the stored card: no MIT is sent for it again.
  const stopOrder = last && storedCardId && declineClassOf(last.result) === "stop-recurring" ? last : undefined;
  let lifecycleNotifications: string[] = [];
  // The payment's final state and what the caller records about it (its notification) commit together.
  await db().$transaction(async (tx) => {
    await tx.payment.update({
      where: { id: paymentId },
      data: {
        status,
        processor: last?.processor ?? null,
        acquirerAccountId: last?.acquirerAccountId ?? null,
        authorizedAmount: approved ? payment.amount : 0n,
        eci: approved ? (approved.result.eci ?? threeDs?.eci ?? null) : (threeDs?.eci ?? null),
        sca: threeDs?.transStatus ?? null,
        storedCardId,
        routingStopped: routingStopped ?? null,
      },
    });
    // The attempt that ended the routing says why in its note (operations[].note of the payment details).
    if (routingStopped && last) await tx.operation.update({ where: { id: last.operationId }, data: { note: routingStopped } });
    if (stopOrder && storedCardId) {
      lifecycleNotifications = await stopMerchantInitiatedPayments({
        tx,
        storedCardId,
        paymentId,
        processor: stopOrder.processor,
        result: stopOrder.result,
      });
    }
    await options.recordOutcome?.(tx, settled);
  });
  for (const notificationId of lifecycleNotifications) await dispatchNotification(notificationId);
  return settled;
}

/**
 * An attempt whose answer was never recorded (a crash, a lost answer) is settled first, under its own
 * reference: when the acquirer approved it, or one settled approved after its request ended (the
 * resolver job, an operator), that is the authorization, and nothing is routed. Undefined when no
 * earlier attempt decides the payment.
 */
async function settleEarlierAttempts(payment: AuthorizablePayment, options: AuthorizePaymentOptions): Promise<AuthorizePaymentResult | undefined> {
  const { paymentId, source, threeDs } = options;
  let resolved: ResolvedAuthorization | undefined;
  try {
    resolved = await resolvePendingAuthorizations({ paymentId });
  } catch (error) {
    if (!(error instanceof AuthorizationOutcomeUnknownError)) throw error;
    // Still unknown: nothing is routed (the card may be held already); the resolver job settles it.
    return { status: "pending", processor: error.processor, responsecode: RESPONSE_CODES.timeout, attempts: [] };
  }
  if (!resolved) {
    const approvedEarlier = await approvedAttemptOf(paymentId);
    if (approvedEarlier?.processor) {
      resolved = {
        operationId: approvedEarlier.id,
        processor: approvedEarlier.processor,
        result: {
          status: "approved",
          responsecode: approvedEarlier.responseCode ?? RESPONSE_CODES.approved,
          eci: approvedEarlier.eci ?? undefined,
        },
      };
    }
  }
  if (!resolved) return undefined;
  const acquirerAccountId = (await db().operation.findUnique({ where: { id: resolved.operationId }, select: { acquirerAccountId: true } }))
    ?.acquirerAccountId;
  let storedCardId = payment.storedCardId;
  if (source.kind === "card" && source.store !== false && !storedCardId) {
    storedCardId = (await storeCard(db(), { merchantId: payment.merchantId, mode: payment.mode, card: source.card })).id;
  }
  await db().payment.update({
    where: { id: paymentId },
    data: {
      status: payment.amount === 0n ? "TOKENIZED" : "AUTHORIZED",
      processor: resolved.processor,
      acquirerAccountId: acquirerAccountId ?? null,
      authorizedAmount: payment.amount,
      eci: resolved.result.eci ?? threeDs?.eci ?? null,
      sca: threeDs?.transStatus ?? null,
      storedCardId,
    },
  });
  return recordedResult(paymentId);
}

/** The card to authorize, kept for later payments unless the source says not to, with its stored card and PAR. */
async function cardOf(
  payment: AuthorizablePayment,
  source: AuthorizationCardSource,
): Promise<{ card: CardDetails; storedCardId: string | null; par: string | undefined }> {
  if (source.kind === "stored") {
    const stored = await db().storedCard.findFirst({
      where: { id: source.storedCardId, merchantId: payment.merchantId, mode: payment.mode },
      select: { ...STORED_CARD_SELECT, par: true },
    });
    if (!stored) throw new Error(`stored card ${source.storedCardId} does not belong to the payment's merchant and mode`);
    return { card: openStoredCard(stored), storedCardId: source.storedCardId, par: stored.par ?? undefined };
  }
  if (source.store !== false && !payment.storedCardId) {
    const stored = await storeCard(db(), { merchantId: payment.merchantId, mode: payment.mode, card: source.card });
    await db().payment.update({ where: { id: payment.id }, data: { storedCardId: stored.id } });
    return { card: source.card, storedCardId: stored.id, par: stored.par ?? undefined };
  }
  return { card: source.card, storedCardId: payment.storedCardId, par: derivedPar(source.card) };
}

/** The attempt's pending operation, written before the call: if the process dies mid-call, it shows the unknown outcome. */
async function beginAttempt(
  payment: AuthorizablePayment,
  options: AuthorizePaymentOptions,
  { processor, accountId }: { processor: AcquirerName; accountId: string },
  routingAttempt: number,
  note: string | undefined,
): Promise<string> {
  const operationId = newId();
  await db().operation.create({
    data: {
      id: operationId,
      paymentId: payment.id,
      type: "authorize",
      paymentType: options.mit?.paymentType ?? payment.paymentType,
      amount: payment.amount,
      currency: payment.currency,
      processor,
      acquirerAccountId: accountId,
      routingAttempt,
      eci: options.threeDs?.eci ?? null,
      authenticationId: options.threeDs?.authenticationId ?? null,
      note: note ?? null,
      responseId: options.responseId ?? null,
      // The call's lease starts here: a crash mid-call leaves a pending attempt that is looked up, never sent again.
      outcomeUnknownSince: new Date(),
    },
    select: { id: true },
  });
  return operationId;
}

/**
 * The note of an attempt made with a second authentication (decision 0192): the payment details
 * (operations[].note) and the back office say which authentication it carried and why it was made.
 */
async function authenticationNote(threeDs: ThreeDsResult | undefined): Promise<string | undefined> {
  if (!threeDs?.authenticationId) return undefined;
  const authentication = await db().threeDsAuthentication.findUnique({
    where: { id: threeDs.authenticationId },
    select: { reason: true, challengeRequired: true },
  });
  const how = `${authentication?.challengeRequired ? "challenge" : "frictionless"}, transStatus ${threeDs.transStatus}, ECI ${threeDs.eci}`;
  if (authentication?.reason === "routing") return `3-D Secure authenticated again for this processor's account after a decline at the previous one (${how})`;
  if (authentication?.reason === "step-up") return `3-D Secure step-up: the issuer asked for authentication (${how})`;
  return undefined;
}

/**
 * Records an attempt's answer and returns it, or undefined when its outcome stays unknown. An unknown
 * outcome (the acquirer may hold the card) is resolved under the attempt's own reference before the
 * routing goes on: found approved, that is the authorization; found declined, or proven never
 * received, the routing goes on; otherwise it stays pending and the routing stops (no second hold),
 * for the resolver job (lib/jobs/finish-stuck-payments.ts) or an operator.
 */
async function concludeAttempt(
  { operationId }: AccountAttempt,
  result: ProcessorResult,
  threeDs: ThreeDsResult | undefined,
): Promise<ProcessorResult | undefined> {
  if (!isOutcomeUnknown(result)) {
    await db().operation.update({
      where: { id: operationId },
      data: {
        ...operationResultFields(result),
        declineClass: declineClassOf(result),
        schemeTransactionId: result.scheme?.schemeTransactionId ?? null,
        credentialSeriesId: result.credentialSeriesId ?? null,
        eci: result.eci ?? threeDs?.eci ?? null,
        // Authorization attempts also name the failure class: it tells the back office whether an
        // unanswered acquirer may still have acted (indeterminate) or surely did not (declined, retryable).
        errorMessage: result.status === "approved" ? null : [result.failure, result.message].filter(Boolean).join(": ") || null,
      },
    });
    return result;
  }
  await markOutcomeUnknown({ operationId, result });
  await settleUnknownOperation({ operationId });
  const settled = await db().operation.findUniqueOrThrow({
    where: { id: operationId },
    select: { status: true, responseCode: true, authorizationCode: true, processorReference: true, eci: true },
  });
  if (settled.status === "pending") return undefined;
  // A look-up tells approved or not, not the issuer's reason: the class follows from the status.
  await db().operation.update({ where: { id: operationId }, data: { declineClass: declineClassOf({ status: settled.status, failure: result.failure }) } });
  return {
    status: settled.status,
    failure: settled.status === "approved" ? undefined : result.failure,
    responsecode: settled.responseCode ?? result.responsecode,
    authorizationcode: settled.authorizationCode ?? undefined,
    processorReference: settled.processorReference ?? undefined,
    eci: settled.eci ?? undefined,
  };
}

/** The refusal of a test card in live mode, recorded as a declined attempt that reached no acquirer. */
const TEST_CARD_IN_LIVE =
  "declined: a published test card number; live payments never take test cards (use a real card, or a test-mode key)";

async function declineTestCardInLive(
  paymentId: string,
  payment: { amount: bigint; currency: string; paymentType: string },
  options: AuthorizePaymentOptions,
  routingAttempt: number,
): Promise<ProcessorResult> {
  const result: ProcessorResult = {
    status: "declined",
    failure: "declined",
    responsecode: RESPONSE_CODES.invalidCardNumber,
    message: TEST_CARD_IN_LIVE,
  };
  const operationId = newId();
  await db().operation.create({
    data: {
      id: operationId,
      paymentId,
      type: "authorize",
      paymentType: options.mit?.paymentType ?? payment.paymentType,
      amount: payment.amount,
      currency: payment.currency,
      status: "declined",
      routingAttempt,
      responseCode: result.responsecode,
      errorMessage: TEST_CARD_IN_LIVE,
      responseId: options.responseId ?? null,
      completedAt: new Date(),
    },
    select: { id: true },
  });
  return result;
}
