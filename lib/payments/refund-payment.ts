// Refunds a captured payment, in part or in full, several times, never beyond the captured amount.
// A capture still pending counts: a refund sent right after it is accepted and runs once that
// capture is approved, or fails with its reason (lib/payments/claim-refund-after-captures.ts). An
// omitted amount refunds everything captured (or being captured) and not yet refunded.
import { invalidParameter } from "../errors";
import type { Mode } from "../mode";
import type { OperationRequest } from "../validation/operation";
import { notInState, requestFollowUp, type AmountRule, type RequestFollowUpOptions } from "./request-follow-up";

const REFUNDABLE = new Set(["CAPTURED", "REFUNDED"]);

export const refundAmountRule: AmountRule = (payment, totals, requested) => {
  if (!REFUNDABLE.has(payment.status) && totals.capturedOrReserved === 0n) notInState("refunded", payment, totals);
  const remaining = totals.capturedOrReserved - totals.refundedOrReserved;
  if (remaining <= 0n) throw invalidParameter("paymentid", "the captured amount is already refunded in full (or being refunded)");
  const amount = requested ?? remaining;
  if (amount > remaining) throw invalidParameter("amount", `exceeds the captured amount left to refund (${remaining})`);
  return amount;
};

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
  return requestFollowUp({ ...options, type: "refund", rule: refundAmountRule });
}
