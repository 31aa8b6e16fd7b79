// The issuer's ACS posted the CRes of a goPay() challenge to our notification page. The outcome is
// fetched from the directory server (lib/threeds/complete-authentication.ts), never taken from the
// browser; the authorization itself follows when the controller frame sends the card again.
import { db } from "../db";
import { completeAuthentication, threeDsServerTransIdFromCres, UnknownAuthenticationError } from "../threeds/complete-authentication";

export type ChallengeOutcome = "completed" | "failed" | "aborted";

export interface FinishSessionChallengeOptions {
  sessionId: string;
  paymentId: string;
  /** The CRes form field as the ACS posted it (base64url JSON). */
  cres: string | undefined;
}

export async function finishSessionChallenge({ sessionId, paymentId, cres }: FinishSessionChallengeOptions): Promise<ChallengeOutcome> {
  const session = await db().paymentSession.findUnique({ where: { id: sessionId }, select: { paymentId: true } });
  const threeDsServerTransId = cres ? threeDsServerTransIdFromCres(cres) : undefined;
  if (!session || session.paymentId !== paymentId || !threeDsServerTransId) return "failed";
  try {
    const result = await completeAuthentication({ threeDsServerTransId, paymentId });
    if (result.kind === "authenticated") return "completed";
    await db().payment.updateMany({ where: { id: paymentId, status: "PENDING" }, data: { status: "FAILED" } });
    return result.kind === "cancelled" ? "aborted" : "failed";
  } catch (error) {
    if (error instanceof UnknownAuthenticationError) return "failed";
    throw error;
  }
}
