// instantcapture 1 and 2 of initdynamic: capture the full amount right after the approval, inside
// the goPay() request, so the cardholder's result already says whether the money was taken.
// 1: when the capture fails, void the authorization (the payment then fails);
// 2: when the capture fails, keep the authorization (the merchant can capture later).
// The capture and the void are reserved the way a merchant's are (lib/payments/request-follow-up.ts):
// under the payment's row lock, checked by the same amount rules, so a merchant capture that arrives
// between the authorization and this capture is never doubled. A capture or void whose answer is
// lost is looked up (lib/payments/settle-unknown-operation.ts), never sent twice. A void that fails
// is handed to the follow-up job (retried durably). The merchant learns the outcome from the
// window's completion (spec 6.2); only an instant capture settled after goPay() is notified on
// its own, after that completion (decision 0156).
import { db, type Tx } from "../db";
import { faultPoint } from "../faults/fault-point";
import { newId } from "../ids";
import { followUpRequested } from "../inngest/events/merchant-api";
import { sendEventAfterCommit } from "../inngest/send-event";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { runFollowUp } from "../routing/follow-up";
import { isOutcomeUnknown } from "../routing/lookup-operation-outcome";
import type { AcquirerName } from "../acquirers/names";
import { lockPayment } from "./get-payment-or-throw";
import { operationTotals } from "./operation-totals";
import { recordFollowUpResult } from "./record-follow-up-result";
import { FOLLOW_UP_KINDS, type FollowUpType } from "./follow-ups/kinds";
import { holdUnknownOutcome, markCallEnded, type SettleResult } from "./settle-unknown-operation";

export interface CaptureInstantlyOptions {
  paymentId: string;
  voidOnFailure: boolean;
}

export interface CaptureInstantlyResult {
  /** The money is taken (or being taken by a merchant capture reserved before this one). */
  captured: boolean;
  voided: boolean;
  /** The void failed and was handed to the follow-up job: the authorization is still held. */
  voidRetrying?: boolean;
  /** The capture's outcome is unknown; the reconciliation settles it. */
  captureUnknown?: boolean;
}

interface InstantPayment {
  id: string;
  merchantId: string;
  currency: string;
  processor: AcquirerName;
  textOnStatement: string | null;
}

/** Locks the payment, applies the kind's amount rule (the merchant API's) and inserts the pending operation; undefined when the rule refuses. */
async function reserve(
  payment: InstantPayment,
  type: FollowUpType,
  note: string,
  notificationUrl: string | null,
  responseId: string | null,
) {
  return db().$transaction(async (tx: Tx) => {
    await lockPayment(tx, payment.id);
    const state = await tx.payment.findUniqueOrThrow({
      where: { id: payment.id },
      select: { status: true, authorizedAmount: true, processor: true, acquirerAccount: { select: { platform: true } } },
    });
    const totals = await operationTotals(tx, payment.id);
    let amount: bigint;
    try {
      amount = FOLLOW_UP_KINDS[type].amountRule({ ...state, platform: state.acquirerAccount?.platform }, totals, undefined);
    } catch {
      return { refused: true as const, capturedOrReserved: totals.capturedOrReserved };
    }
    const operationId = newId();
    await tx.operation.create({
      data: {
        id: operationId,
        paymentId: payment.id,
        type,
        amount,
        currency: payment.currency,
        processor: payment.processor,
        note,
        // The merchant never asked for it: the instant capture carries the session's id (which the
        // merchant has from initdynamic); a void of ours none, as no request was answered for it,
        // and it is not notified: the window's completion says the payment failed (decision 0156).
        responseId,
        notificationUrl,
        // Unknown until the answer is recorded: a crash mid-call leaves it for the look-up.
        outcomeUnknownSince: new Date(),
      },
      select: { id: true },
    });
    return { refused: false as const, operationId, amount };
  });
}

async function call(payment: InstantPayment, type: FollowUpType, operationId: string, amount: bigint): Promise<SettleResult> {
  const result = await runFollowUp({
    payment: { id: payment.id, currency: payment.currency, processor: payment.processor },
    operation: type,
    amount,
    operationId,
    textOnStatement: payment.textOnStatement ?? undefined,
  });
  try {
    faultPoint(type === "capture" ? "instant-capture.after-capture" : "instant-capture.after-void");
    if (isOutcomeUnknown(result)) return await holdUnknownOutcome({ operationId, result });
    // Not notified on its own: the window's completion reports the payment (a capture or void
    // settled here has no address).
    await recordFollowUpResult({ operationId, result, processor: payment.processor });
    return result.status;
  } catch (error) {
    await markCallEnded(operationId);
    throw error;
  }
}

function loadInstantPayment(paymentId: string) {
  return db().payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: {
      id: true,
      merchantId: true,
      mode: true,
      status: true,
      currency: true,
      processor: true,
      authorizedAmount: true,
      textOnStatement: true,
      session: { select: { id: true, notificationUrl: true, hostedIntegrationId: true } },
    },
  });
}

/** Where the results of the window's own operations go: the session's address, else the configured one. */
async function sessionNotificationUrl(row: Awaited<ReturnType<typeof loadInstantPayment>>): Promise<string | null> {
  return (
    row.session?.notificationUrl ??
    (await resolveNotificationUrl({ merchantId: row.merchantId, mode: row.mode, hostedIntegrationId: row.session?.hostedIntegrationId, purpose: "default" }))
  );
}

export async function captureInstantly({ paymentId, voidOnFailure }: CaptureInstantlyOptions): Promise<CaptureInstantlyResult> {
  const row = await loadInstantPayment(paymentId);
  // A repeated authorize request (the window stays open after a failure) for a payment whose
  // authorization was already voided here: nothing to capture, and still nothing paid.
  if (row.status === "VOIDED") return { captured: false, voided: true };
  if (!row.processor || row.authorizedAmount <= 0n) return { captured: false, voided: false };
  const payment: InstantPayment = { ...row, processor: row.processor };

  const capture = await reserve(payment, "capture", "instantcapture", null, row.session?.id ?? null);
  // Refused by the amount rule: a merchant capture took the amount first (it is the capture), or
  // the payment cannot be captured any more.
  if (capture.refused) return { captured: capture.capturedOrReserved > 0n, voided: false };
  const captured = await call(payment, "capture", capture.operationId, capture.amount);
  if (captured === "approved") return { captured: true, voided: false };
  // The capture may have happened: a void now could be refused or release money already taken.
  // Its result, when it is settled later, is notified on its own (spec 6.4, responseid = the
  // sessionid) to the session's address, after the window's completion (the ordering rule of
  // lib/notifications/hold-back.ts holds it back while the window is open).
  if (captured === "unknown" || captured === "operator") {
    await db().operation.update({ where: { id: capture.operationId }, data: { notificationUrl: await sessionNotificationUrl(row) } });
    return { captured: false, voided: false, captureUnknown: true };
  }
  if (!voidOnFailure) return { captured: false, voided: false };

  const voiding = await reserve(payment, "void", "instantcapture", null, null);
  if (voiding.refused) return { captured: false, voided: false };
  const voided = await call(payment, "void", voiding.operationId, voiding.amount);
  if (voided === "approved") return { captured: false, voided: true };
  if (voided === "unknown" || voided === "operator") {
    // Still pending: the reconciliation settles this void (the session finisher ends the window after it).
    return { captured: false, voided: false, voidRetrying: true };
  }
  // Refused or failed: a new void operation for the follow-up job, which retries it durably.
  const retried = await requestInstantVoid({ paymentId, note: "instantcapture: void retried after a failed void" });
  return { captured: false, voided: false, voidRetrying: retried };
}

/**
 * Hands a void of the payment's authorization to the follow-up job (retried durably; not notified,
 * the window's completion reports the payment): after an instantcapture 1 capture failed and its
 * void did not go through. Returns false when the amount rule refuses (already voided, or being voided).
 */
export async function requestInstantVoid({ paymentId, note }: { paymentId: string; note: string }): Promise<boolean> {
  const row = await loadInstantPayment(paymentId);
  if (!row.processor) return false;
  const retry = await reserve({ ...row, processor: row.processor }, "void", note, null, null);
  if (retry.refused) return false;
  await db().operation.update({ where: { id: retry.operationId }, data: { outcomeUnknownSince: null } });
  await sendEventAfterCommit({ type: followUpRequested, data: { operationId: retry.operationId }, id: `follow-up-${retry.operationId}` });
  return true;
}
