// The cardholder pressed Cancel above the challenge (jschallengeaborted). The authentication is
// recorded as aborted and the attempt as failed; the window stays open for another goPay().
import { db } from "../db";

export interface AbortSessionChallengeOptions {
  sessionId: string;
  paymentId: string;
}

/** Returns false when there was no challenge under way for this payment. */
export async function abortSessionChallenge({ sessionId, paymentId }: AbortSessionChallengeOptions): Promise<boolean> {
  const session = await db().paymentSession.findUnique({ where: { id: sessionId }, select: { paymentId: true } });
  if (!session || session.paymentId !== paymentId) return false;
  return db().$transaction(async (tx) => {
    const aborted = await tx.threeDsAuthentication.updateMany({
      where: { paymentId, state: "challenge" },
      data: { state: "aborted", transStatusReason: "cardholder_cancelled", completedAt: new Date() },
    });
    if (aborted.count === 0) return false;
    await tx.payment.updateMany({ where: { id: paymentId, status: "PENDING" }, data: { status: "FAILED" } });
    return true;
  });
}
