// Closes payment windows whose timeout elapsed with no payment under way (spec 3: "the window is
// closed and the integrator is notified (status timeout)") and stores their completion
// notification in the same transaction, so a crash cannot close a window without notifying.
// A window whose payment is being processed (PROCESSING) is left to its goPay() request, or, when
// that request died or handed over, to the session finisher (lib/cardholder/finish-session-payment.ts).
import { db, hotSql, type Tx } from "../db";
import { dispatchNotification } from "../notifications/enqueue-notification";
import { storeCompletionNotification } from "../notifications/send-completion-notification";

/**
 * The window's payment ends with it: a payment still PENDING (a challenge abandoned, or never
 * paid) becomes TIMED_OUT. Not when an authorization attempt is still pending: the acquirer may
 * have approved it, and resolvePendingAuthorizations settles it first
 * (docs/decisions/0068-money-that-moves-exactly-once-under-faults-reconciliation.md).
 */
export async function closePaymentWithWindow(tx: Tx, paymentId: string): Promise<void> {
  const inFlight = await tx.operation.count({ where: { paymentId, type: "authorize", status: "pending" } });
  if (inFlight > 0) return;
  await tx.payment.updateMany({ where: { id: paymentId, status: "PENDING" }, data: { status: "TIMED_OUT" } });
}

export interface CloseExpiredSessionsOptions {
  now?: Date;
  /** Windows handled per call; the sweeper calls again while there are more. */
  limit?: number;
}

export async function closeExpiredSessions({ now = new Date(), limit = 100 }: CloseExpiredSessionsOptions = {}): Promise<{
  closed: string[];
  notificationIds: string[];
}> {
  // Every second in every process, nearly always finding nothing: on the driver (decision 0214),
  // not through Prisma, whose runtime made this one statement 1% to 2% of an idle process's main
  // thread (docs/performance.md, "Idle CPU").
  const due = await hotSql().$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "PaymentSession" WHERE "status" = 'OPEN' AND "expiresAt" <= ${now} ORDER BY "expiresAt" LIMIT ${limit}`;
  const closed: string[] = [];
  const notificationIds: string[] = [];
  for (const { id } of due) {
    const notificationId = await db().$transaction(async (tx) => {
      // SKIP LOCKED: another service process (or the cardholder flow) holding the window is left alone.
      const locked = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "PaymentSession" WHERE "id" = ${id} AND "status" = 'OPEN' FOR UPDATE SKIP LOCKED`;
      if (locked.length === 0) return undefined;
      const session = await tx.paymentSession.update({ where: { id }, data: { status: "TIMED_OUT", completedAt: now }, select: { paymentId: true } });
      if (session.paymentId) await closePaymentWithWindow(tx, session.paymentId);
      return storeCompletionNotification({ tx, sessionId: id, status: "timeout" });
    });
    if (notificationId === undefined) continue;
    closed.push(id);
    if (notificationId) notificationIds.push(notificationId);
  }
  for (const notificationId of notificationIds) await dispatchNotification(notificationId);
  return { closed, notificationIds };
}
