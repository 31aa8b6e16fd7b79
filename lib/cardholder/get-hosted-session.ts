// The session behind a /dynamic/<sessionid>/... address, and whether its frames may still be used.
import { db } from "../db";
import { parseStoredStyling, type HostedStyling } from "../validation/hosted-styling";
import { effectiveCheckoutOrigins } from "./allowed-checkout-origins";
import { isSessionIdFormat } from "../validation/session-id";
import type { Mode } from "../mode";

export type HostedSessionState =
  /** Takes a payment. */
  | "open"
  /** A payment is under way (e.g. a 3-D Secure challenge). */
  | "processing"
  | "expired"
  | "finished"
  | "unknown";

export interface HostedSession {
  id: string;
  state: HostedSessionState;
  expiresAt: Date;
  onBehalf: boolean;
  elements: { pan: string; expmonth: string; expyear: string; securitycode: string };
  styling: HostedStyling;
  /** Merchant pages allowed to embed the frames (lib/cardholder/allowed-checkout-origins.ts); empty: any. */
  allowedOrigins: string[];
  /** Test sessions take only test cards, and the card number field says so before anyone types. */
  mode: Mode;
}

/** Why a frame is not shown, in words for the merchant's developer (reported through jsfieldloaderror). */
export const REFUSAL_REASONS: Record<Exclude<HostedSessionState, "open" | "processing">, string> = {
  expired: "The payment window of this session has closed.",
  finished: "This session has already completed its payment.",
  unknown: "There is no such payment session.",
};


export async function getHostedSession({
  sessionId,
  now = new Date(),
}: {
  sessionId: string;
  now?: Date;
}): Promise<HostedSession | undefined> {
  if (!isSessionIdFormat(sessionId)) return undefined;
  const session = await db().paymentSession.findUnique({
    where: { id: sessionId },
    select: {
      id: true,
      status: true,
      expiresAt: true,
      onBehalfOfPaymentId: true,
      mode: true,
      idPan: true,
      idExpMonth: true,
      idExpYear: true,
      idSecurityCode: true,
      hostedIntegration: { select: { styling: true, allowedCheckoutOrigins: true } },
      merchant: { select: { allowedCheckoutOrigins: true } },
    },
  });
  if (!session) return undefined;
  return {
    id: session.id,
    state: sessionState(session.status, session.expiresAt, now),
    expiresAt: session.expiresAt,
    onBehalf: session.onBehalfOfPaymentId !== null,
    elements: {
      pan: session.idPan ?? "pan",
      expmonth: session.idExpMonth ?? "expmonth",
      expyear: session.idExpYear ?? "expyear",
      securitycode: session.idSecurityCode ?? "securitycode",
    },
    styling: parseStoredStyling(session.hostedIntegration?.styling),
    allowedOrigins: effectiveCheckoutOrigins({
      merchant: session.merchant.allowedCheckoutOrigins,
      integration: session.hostedIntegration?.allowedCheckoutOrigins,
    }),
    mode: session.mode,
  };
}

export function sessionState(status: string, expiresAt: Date, now: Date): HostedSessionState {
  if (status === "COMPLETED") return "finished";
  if (status === "TIMED_OUT" || expiresAt.getTime() <= now.getTime()) return "expired";
  if (status === "PROCESSING") return "processing";
  // OPEN, or FAILED: the last attempt failed and the cardholder may try again within the window.
  return "open";
}
