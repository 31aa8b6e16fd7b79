// The refund rule: several times, never beyond the captured amount; a capture still pending counts
// (the refund waits for it: ../claim-refund-after-captures.ts). An omitted amount refunds everything
// captured (or being captured) and not yet refunded.
import { invalidParameter } from "../../errors";
import { notInState, type AmountRule } from "./amount-rule";

const REFUNDABLE = new Set(["CAPTURED", "REFUNDED"]);

export const refundAmountRule: AmountRule = (payment, totals, requested) => {
  if (!REFUNDABLE.has(payment.status) && totals.capturedOrReserved === 0n) notInState("refunded", payment, totals);
  const remaining = totals.capturedOrReserved - totals.refundedOrReserved;
  if (remaining <= 0n) throw invalidParameter("paymentid", "the captured amount is already refunded in full (or being refunded)");
  const amount = requested ?? remaining;
  if (amount > remaining) throw invalidParameter("amount", `exceeds the captured amount left to refund (${remaining})`);
  return amount;
};
