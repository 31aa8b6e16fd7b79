// The state a payment is in, in words, derived from what its operations did: what the back office
// shows, the CSV export writes and the merchant API's refusals name. The stored status is coarse on
// purpose (CAPTURED means "some or all captured", REFUNDED "some or all refunded", a payout is
// stored CAPTURED): a payment captured 50 and refunded 10 of 125 is stored
// REFUNDED, but it is partially refunded, and a merchant reading "refunded" would think the money
// went back. The list, its state filter (lib/backoffice/queries/list-payments.ts), the payment
// page, the CSV export and the API's "cannot be ... in its state (...)" all read this one function.

/** Every state and its words, in the order the back office offers them. */
export const DISPLAY_STATE_LABELS = {
  pending: "Pending",
  authorized: "Authorized",
  partially_captured: "Partially captured",
  captured: "Captured",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
  voided: "Voided",
  payout: "Payout",
  declined: "Declined",
  failed: "Failed",
  timed_out: "Timed out",
  abandoned: "Abandoned",
  tokenized: "Card stored",
} satisfies Record<string, string>;

export type DisplayState = keyof typeof DISPLAY_STATE_LABELS;
export const DISPLAY_STATES = Object.keys(DISPLAY_STATE_LABELS) as [DisplayState, ...DisplayState[]];

export interface DisplayStateInput {
  /** The stored PaymentStatus. */
  status: string;
  /** cit, the MIT kinds, or payout. */
  paymentType: string;
  authorizedAmount: bigint;
  capturedAmount: bigint;
  refundedAmount: bigint;
  /**
   * Whether an authorization was ever sent to an acquirer for this payment. Only read for timed-out
   * payments: with none, the cardholder left before the card was sent (abandoned); with one, the
   * window closed while the payment was under way (timed out).
   */
  authorizationAttempted: boolean;
}

export function deriveDisplayState(payment: DisplayStateInput): DisplayState {
  const { status, authorizedAmount, capturedAmount, refundedAmount } = payment;
  if (payment.paymentType === "payout") {
    // Money sent to the card: approved payouts are stored CAPTURED, and can be neither captured nor refunded.
    if (status === "CAPTURED" || status === "REFUNDED") return "payout";
  }
  switch (status) {
    case "PENDING":
      return "pending";
    case "AUTHORIZED":
      return "authorized";
    case "CAPTURED":
    case "REFUNDED":
      if (refundedAmount > 0n) return refundedAmount >= capturedAmount ? "refunded" : "partially_refunded";
      return capturedAmount >= authorizedAmount ? "captured" : "partially_captured";
    case "VOIDED":
      return "voided";
    case "DECLINED":
      return "declined";
    case "FAILED":
      return "failed";
    case "TIMED_OUT":
      return payment.authorizationAttempted ? "timed_out" : "abandoned";
    case "TOKENIZED":
      return "tokenized";
    default:
      return "pending";
  }
}

/** The state as words inside a sentence: "partially refunded", "card stored". */
export function displayStateWords(state: DisplayState): string {
  return DISPLAY_STATE_LABELS[state].toLowerCase();
}

/** The sign a payment's amount is shown with: a payout is money leaving the merchant. */
export function isOutgoing(payment: { paymentType: string }): boolean {
  return payment.paymentType === "payout";
}
