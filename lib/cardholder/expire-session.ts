// Closes a payment window whose timeout elapsed without a payment under way (spec 3: "the window
// is closed and the integrator is notified (status timeout)"). A window whose payment is already
// being processed is left to finish; its own completion notification follows. Used by the
// cardholder flow when goPay() arrives after the window ended; the sweeper uses close-expired-sessions.ts.
import { db } from "../db";
import { closePaymentWithWindow } from "./close-expired-sessions";

/** Returns true when this call closed the window. */
export async function expireSession({ sessionId, now = new Date() }: { sessionId: string; now?: Date }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const closed = await tx.paymentSession.updateMany({
      // The caller has seen the window's end, so only the state is checked.
      where: { id: sessionId, status: "OPEN" },
      data: { status: "TIMED_OUT", completedAt: now },
    });
    if (closed.count !== 1) return false;
    const session = await tx.paymentSession.findUniqueOrThrow({ where: { id: sessionId }, select: { paymentId: true } });
    // The window's payment ends with it (an abandoned challenge leaves it PENDING).
    if (session.paymentId) await closePaymentWithWindow(tx, session.paymentId);
    return true;
  });
}
