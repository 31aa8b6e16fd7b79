// Which payment's card a merchant-initiated payment may charge (money review 4, N5): the card of an
// approved cardholder payment that stored it (an authorization, later captured, refunded or voided,
// or a card stored with amount 0), or of an approved MIT of its series. Never the card of a payment
// that was declined, failed, timed out or never finished: its cardholder never completed a payment
// (after a 1A "authentication required" an MIT would bypass the issuer's strong authentication), and
// never a payout's. The one place that decides it, with the rule of the series that later stops an
// MIT: a cardholder's stop order (a stop-recurring answer, lib/payments/stop-merchant-initiated-payments.ts)
// ends every MIT on the card without an acquirer call. A refusal is the spec's INVALID_PARAMETER
// naming the field that named the parent (decision 0191).
import { invalidParameter } from "../errors";
import { MIT_PAYMENT_TYPES } from "../validation/mit";
import { mitStoppedReason } from "./stop-merchant-initiated-payments";

/** A parent whose authorization the acquirer approved, whatever followed it. */
const APPROVED = ["AUTHORIZED", "CAPTURED", "REFUNDED", "VOIDED"];
const WHAT_AN_MIT_CHARGES = "an MIT charges only the card of an approved cardholder payment (or an approved MIT of its series)";

export function checkMitParent({
  parent,
  parameter,
}: {
  parent: {
    paymentType: string;
    status: string;
    storedCardId: string | null;
    storedCard?: Parameters<typeof mitStoppedReason>[0] | null;
  };
  /** The request's field that named the parent (paymentid, parentpaymentid or merchantpaymentid). */
  parameter: string;
}): void {
  if (!parent.storedCardId) throw invalidParameter(parameter, "the payment has no stored card data to charge");
  if (parent.paymentType === "payout") throw invalidParameter(parameter, `is a payout: ${WHAT_AN_MIT_CHARGES}`);
  const cardholder = parent.paymentType === "cit";
  const mit = (MIT_PAYMENT_TYPES as readonly string[]).includes(parent.paymentType);
  const approved = APPROVED.includes(parent.status) || (cardholder && parent.status === "TOKENIZED");
  if (!(cardholder || mit) || !approved) throw invalidParameter(parameter, `the payment was not approved: ${WHAT_AN_MIT_CHARGES}`);
  const stopped = parent.storedCard ? mitStoppedReason(parent.storedCard) : undefined;
  if (stopped) throw invalidParameter(parameter, stopped);
}
