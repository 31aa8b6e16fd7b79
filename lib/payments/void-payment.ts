// Voids (cancels) an authorization that has no capture, approved or pending. A void releases the
// whole authorization: an amount, when sent, must be the authorized amount.
import { invalidParameter } from "../errors";
import type { Mode } from "../mode";
import type { OperationRequest } from "../validation/operation";
import { notInState, requestFollowUp, type AmountRule, type RequestFollowUpOptions } from "./request-follow-up";

export const voidAmountRule: AmountRule = (payment, totals, requested) => {
  if (payment.status !== "AUTHORIZED" || totals.voidedOrVoiding) notInState("voided", payment, totals);
  // A void releases the authorization a pending capture is taking from: it cannot follow one.
  if (totals.capturedApproved === 0n && totals.pendingCaptures > 0) {
    throw invalidParameter(
      "paymentid",
      "a capture of this payment is in progress, and a void cannot follow it: refund the payment instead (a refund waits for the capture)",
    );
  }
  if (totals.capturedOrReserved > 0n) throw invalidParameter("paymentid", "a captured payment cannot be voided; refund it instead");
  if (requested !== undefined && requested !== payment.authorizedAmount) {
    throw invalidParameter("amount", `a void releases the whole authorization: omit amount or send ${payment.authorizedAmount}`);
  }
  return payment.authorizedAmount;
};

export async function voidPayment(options: {
  merchantId: string;
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: OperationRequest;
  bindAnswer?: RequestFollowUpOptions["bindAnswer"];
}) {
  return requestFollowUp({ ...options, type: "void", rule: voidAmountRule });
}
