// Finishes a payment window that its goPay() request could not finish
// (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md, item 5, as amended by
// docs/decisions/0145-unknown-outcomes-found-before-the-window-closed-not-found-held-a-day.md): the
// process died mid-payment (the window's lease ran out), the completion failed after an approval,
// or the request ended with an outcome still unknown (an authorization attempt, an instantcapture 1
// capture or its void). Called by the job lib/jobs/finish-stuck-payments.ts once the attempts have
// been looked up; idempotent, one completion notification per window.
//
// A window that is PROCESSING and no longer leased ends as its payment says:
// - an attempt still unknown: waits while the window is open; once it has expired the window closes
//   with completion "timeout" (and an approval found later is voided, below);
// - approved (by the request, or an attempt settled approved before the window was closed, also by
//   the look-up of the first round after its end, or by an operator): the instant capture the
//   request did not make is made; instantcapture 1 completes "approved" only once captured, else
//   once its authorization is voided ("failed"); then COMPLETED and notified;
// - nothing approved: the window reopens for another attempt, or times out ("timeout") when expired.
// A window already closed (timed out or completed otherwise) whose payment then turns out approved
// by its acquirer gets that hold voided: the merchant was told the payment did not complete.
import { db, type Tx } from "../db";
import { log } from "../observability/logger";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { storeCompletionNotification } from "../notifications/send-completion-notification";
import { applyApprovedAttempt, approvedAttemptOf } from "../payments/apply-approved-attempt";
import { captureInstantly, requestInstantVoid } from "../payments/capture-instantly";
import { voidLateApproval } from "../routing/reconcile-timed-out-authorizations";
import { closePaymentWithWindow } from "./close-expired-sessions";

/** Voids retried for one instantcapture 1 payment before an operator is asked to release the hold. */
const MAX_INSTANT_VOIDS = 3;
const APPROVED = ["AUTHORIZED", "CAPTURED", "REFUNDED", "TOKENIZED"];

export type FinishSessionOutcome = "busy" | "waiting" | "completed" | "reopened" | "timed_out" | "voided_late" | "nothing";

interface Session {
  id: string;
  status: string;
  expiresAt: Date;
  leaseUntil: Date | null;
  instantCapture: number;
  amount: bigint;
  paymentId: string | null;
}

/** Ends the window in one transaction with its completion notification; false when another process ended it first. */
async function endWindow(sessionId: string, to: "COMPLETED" | "TIMED_OUT", now: Date, status?: "approved" | "failed"): Promise<boolean> {
  const notificationId = await db().$transaction(async (tx: Tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "PaymentSession" WHERE "id" = ${sessionId} AND "status" = 'PROCESSING' FOR UPDATE SKIP LOCKED`;
    if (locked.length === 0) return undefined;
    const session = await tx.paymentSession.update({
      where: { id: sessionId },
      data: { status: to, completedAt: now, leaseUntil: null },
      select: { paymentId: true },
    });
    if (to === "TIMED_OUT" && session.paymentId) await closePaymentWithWindow(tx, session.paymentId);
    return storeCompletionNotification({ tx, sessionId, status: to === "TIMED_OUT" ? "timeout" : status });
  });
  if (notificationId) await dispatchNotification(notificationId);
  return notificationId !== undefined;
}

/** instantcapture on an approved payment: "captured", "kept" (instantcapture 2), "voided" (instantcapture 1), or "waiting". */
async function instantCaptureState(session: Session, paymentId: string): Promise<"captured" | "kept" | "voided" | "waiting"> {
  const capturesOf = () => db().operation.findMany({ where: { paymentId, type: "capture" }, select: { status: true } });
  let captures = await capturesOf();
  if (captures.length === 0) {
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true } });
    // The request died before its instant capture: made now, as the request would have.
    if (payment.status === "AUTHORIZED") await captureInstantly({ paymentId, voidOnFailure: session.instantCapture === 1 });
    captures = await capturesOf();
    if (captures.length === 0) return "kept";
  }
  if (captures.some((capture) => capture.status === "approved")) return "captured";
  // Its outcome is unknown: instantcapture 1 must not be called paid or voided yet (the reconciliation settles it).
  if (captures.some((capture) => capture.status === "pending")) return session.instantCapture === 1 ? "waiting" : "kept";
  if (session.instantCapture === 2) return "kept";
  // instantcapture 1 and the capture failed: the authorization is released before the window ends.
  const voids = await db().operation.findMany({ where: { paymentId, type: "void" }, select: { status: true } });
  if (voids.some((operation) => operation.status === "approved")) return "voided";
  if (voids.some((operation) => operation.status === "pending")) return "waiting";
  if (voids.length >= MAX_INSTANT_VOIDS) {
    log("cardholder").error(
      { event: "operator.needed", paymentId },
      `operator needed: payment ${paymentId} (instantcapture 1): its capture failed and ${voids.length} voids failed; release the authorization by hand`,
    );
    return "voided";
  }
  await requestInstantVoid({ paymentId, note: "instantcapture: void after a failed capture, by the session finisher" });
  return "waiting";
}

export async function finishSessionPayment({ sessionId, now = new Date() }: { sessionId: string; now?: Date }): Promise<FinishSessionOutcome> {
  const session = await db().paymentSession.findUnique({
    where: { id: sessionId },
    select: { id: true, status: true, expiresAt: true, leaseUntil: true, instantCapture: true, amount: true, paymentId: true },
  });
  if (!session) return "nothing";
  const paymentId = session.paymentId;
  const expired = session.expiresAt.getTime() <= now.getTime();

  if (session.status === "TIMED_OUT" || session.status === "COMPLETED") {
    // Closed otherwise; an approval that turned up afterwards holds the card for nothing.
    if (!paymentId) return "nothing";
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true } });
    if (APPROVED.includes(payment.status)) return "nothing";
    const late = await approvedAttemptOf(paymentId);
    if (late) {
      const voided = await voidLateApproval({ operationId: late.id, why: `its payment window ended ${session.status.toLowerCase()}` });
      if (!voided) return "waiting";
    }
    // The payment ends with its window once no attempt is pending any more.
    if (session.status === "TIMED_OUT") await db().$transaction((tx) => closePaymentWithWindow(tx, paymentId));
    return late ? "voided_late" : "nothing";
  }
  if (session.status !== "PROCESSING") return "nothing";
  if (session.leaseUntil && session.leaseUntil.getTime() > now.getTime()) return "busy";
  // A window claimed before windows had leases: left alone until it has expired.
  if (!session.leaseUntil && !expired) return "busy";

  const pendingAttempts = paymentId ? await db().operation.count({ where: { paymentId, type: "authorize", status: "pending" } }) : 0;
  if (pendingAttempts > 0) {
    if (!expired) return "waiting";
    return (await endWindow(session.id, "TIMED_OUT", now)) ? "timed_out" : "busy";
  }
  // An attempt settled approved after the request ended, before the window was closed: that is the
  // payment, also when the window's time ran out meanwhile. The acquirer approved what the cardholder
  // sent while the window was open, the cardholder was told "pending, do not pay again", and the
  // merchant has been told nothing yet: the truth is "approved" (closing it "timeout" would leave a
  // hold the merchant does not know of).
  if (paymentId) await applyApprovedAttempt({ paymentId });
  const payment = paymentId ? await db().payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true } }) : undefined;
  // Approved by the request itself (it recorded the payment's state) completes even after the
  // window's end: the cardholder may already have been told "approved".
  if (payment && paymentId && (APPROVED.includes(payment.status) || payment.status === "VOIDED")) {
    if (payment.status !== "VOIDED" && session.amount > 0n && (session.instantCapture === 1 || session.instantCapture === 2)) {
      const state = await instantCaptureState(session, paymentId);
      if (state === "waiting") return "waiting";
      const ended = await endWindow(session.id, "COMPLETED", now, state === "voided" ? "failed" : "approved");
      return ended ? "completed" : "busy";
    }
    const ended = await endWindow(session.id, "COMPLETED", now, payment.status === "VOIDED" ? "failed" : "approved");
    return ended ? "completed" : "busy";
  }
  if (expired) return (await endWindow(session.id, "TIMED_OUT", now)) ? "timed_out" : "busy";
  // Nothing approved and time left: the cardholder may try again.
  const reopened = await db().paymentSession.updateMany({
    where: { id: session.id, status: "PROCESSING", OR: [{ leaseUntil: null }, { leaseUntil: { lte: now } }] },
    data: { status: "OPEN", leaseUntil: null },
  });
  return reopened.count === 1 ? "reopened" : "busy";
}

/** PROCESSING windows whose goPay() request is no longer working on them (lease run out or released), oldest first. */
export async function findUnfinishedSessions({ now = new Date(), limit = 100 }: { now?: Date; limit?: number } = {}): Promise<string[]> {
  const sessions = await db().paymentSession.findMany({
    where: { status: "PROCESSING", OR: [{ leaseUntil: null }, { leaseUntil: { lte: now } }] },
    orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true },
  });
  return sessions.map(({ id }) => id);
}
