// Refunds a captured payment, in part or in full, several times, never beyond the captured amount.
// A capture still pending counts: a refund sent right after it is accepted and runs once that
// capture is approved, or fails with its reason (lib/payments/claim-refund-after-captures.ts). An
// omitted amount refunds everything captured (or being captured) and not yet refunded.
import { requestFollowUp, type FollowUpRequest, type RequestFollowUpOptions } from "./request-follow-up";

/** `reason`: why it is given, from the back office (lib/backoffice/refund-reasons.ts). */
export async function refundPayment(options: FollowUpRequest & Pick<RequestFollowUpOptions, "reason">) {
  return requestFollowUp({ ...options, type: "refund" });
}
