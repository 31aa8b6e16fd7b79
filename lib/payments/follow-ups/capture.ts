// The capture rule: once or several times (once at an acquirer that completes an authorization
// once: its module's capabilities), never beyond the authorized amount; an omitted amount captures
// everything still uncaptured.
import { invalidParameter } from "../../errors";
import { capabilitiesOf } from "../../acquirers/capabilities";
import { notInState, type AmountRule } from "./amount-rule";

const CAPTURABLE = new Set(["AUTHORIZED", "CAPTURED", "REFUNDED"]);

export const captureAmountRule: AmountRule = (payment, totals, requested) => {
  if (!CAPTURABLE.has(payment.status) || totals.voidedOrVoiding) notInState("captured", payment, totals);
  // Bambora North America completes a pre-authorization once ("Pre-Authorization already completed"):
  // a second capture would only be refused there, so it is refused here, before anything is reserved.
  if (payment.processor && !capabilitiesOf(payment.processor, payment.platform).severalCaptures && totals.capturedOrReserved > 0n) {
    throw invalidParameter(
      "paymentid",
      `${payment.processor} captures an authorization once, and this payment is captured already (or being captured): what was not captured is not taken`,
    );
  }
  const remaining = payment.authorizedAmount - totals.capturedOrReserved;
  if (remaining <= 0n) throw invalidParameter("paymentid", "the authorized amount is already captured in full (or being captured)");
  const amount = requested ?? remaining;
  if (amount > remaining) throw invalidParameter("amount", `exceeds the authorized amount left to capture (${remaining})`);
  return amount;
};
