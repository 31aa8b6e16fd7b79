// Refunds a captured payment, in part or in full, several times, never beyond the captured amount.
// A capture still pending counts: a refund sent right after it is accepted and runs once that
// capture is approved, or fails with its reason (lib/payments/claim-refund-after-captures.ts). An
// omitted amount refunds everything captured (or being captured) and not yet refunded.
import type { Mode } from "../mode";
import type { OperationRequest } from "../validation/operation";
import { requestFollowUp, type RequestFollowUpOptions } from "./request-follow-up";

export async function refundPayment(options: {
  merchantId: string;
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: OperationRequest;
  bindAnswer?: RequestFollowUpOptions["bindAnswer"];
  /** Why it is given, from the back office (lib/backoffice/refund-reasons.ts). */
  reason?: string;
}) {
  return requestFollowUp({ ...options, type: "refund" });
}
