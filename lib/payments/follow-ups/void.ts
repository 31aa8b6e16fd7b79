// The void rule: an authorization with no capture, approved or pending, released whole.
import { invalidParameter } from "../../errors";
import { notInState, type AmountRule } from "./amount-rule";

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
