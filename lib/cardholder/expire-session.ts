// Closes a payment window whose timeout elapsed without a payment under way (spec 3: "the window
// is closed and the integrator is notified (status timeout)"). A window whose payment is already
// being processed is left to finish; its own completion notification follows. Used by the
// cardholder flow when goPay() arrives after the window ended; the sweeper uses close-expired-sessions.ts.
import { db } from "../db";

/** Returns true when this call closed the window. */
export async function expireSession({ sessionId, now = new Date() }: { sessionId: string; now?: Date }): Promise<boolean> {
  const closed = await db().paymentSession.updateMany({
    // The caller has seen the window's end, so only the state is checked.
    where: { id: sessionId, status: "OPEN" },
    data: { status: "TIMED_OUT", completedAt: now },
  });
  return closed.count === 1;
}
