// Why a refund from the back office was given (as Stripe's refund reasons): stored with the refund
// operation (Operation.reason), shown on the payment page and in the audit log. The merchant API is
// the spec's and has no such field: its refunds carry none.
export const REFUND_REASONS = ["requested_by_customer", "duplicate", "fraudulent", "other"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent",
  other: "Other",
};

/** A stored reason as words; a value this version does not know is shown as stored. */
export function refundReasonLabel(reason: string): string {
  return (REFUND_REASON_LABELS as Record<string, string>)[reason] ?? reason;
}
