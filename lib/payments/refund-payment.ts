// Refunds a captured payment, in part or in full, several times, never beyond the captured amount
// (approved captures only: a capture still in flight cannot be refunded yet). An omitted amount
// refunds everything still unrefunded.
import { invalidParameter } from "../errors";
import type { Mode } from "../mode";
import type { OperationRequest } from "../validation/operation";
import { notInState, requestFollowUp, type AmountRule, type RequestFollowUpOptions } from "./request-follow-up";

const REFUNDABLE = new Set(["CAPTURED", "REFUNDED"]);

export const refundAmountRule: AmountRule = (payment, totals, requested) => {
  if (!REFUNDABLE.has(payment.status) && totals.capturedApproved === 0n) notInState("refunded", payment, totals);
  const remaining = totals.capturedApproved - totals.refundedOrReserved;
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
