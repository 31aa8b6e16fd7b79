// A dispute as the merchant API shows it (lib/validation/disputes.ts): the notification's fields
// from the same row, plus the answer given here, the evidence count and when it last changed.
import type { Mode } from "../mode";
import { formatUtcTimestamp } from "../notifications/format";
import type { DisputeBody } from "../validation/disputes";
import type { DisputeListItem } from "./list-disputes";

export function disputeResource(item: DisputeListItem, mode: Mode): DisputeBody {
  return {
    disputeid: item.id,
    paymentid: item.paymentId ?? "",
    merchantpaymentid: item.merchantPaymentId ?? "",
    operationid: item.operationId ?? "",
    processor: item.processor,
    type: item.kind as DisputeBody["type"],
    status: item.status as DisputeBody["status"],
    reasoncode: item.reasonCode,
    reason: item.reason,
    amount: item.amount.toString(),
    currency: item.currency,
    partial: item.partial,
    openedon: item.openedOn,
    dueon: item.dueOn ?? "",
    expireson: item.expiresOn ?? "",
    answers: item.answers as DisputeBody["answers"],
    mode,
    decision: (item.decision ?? "") as DisputeBody["decision"],
    evidencefiles: item.evidenceFiles,
    updated: formatUtcTimestamp(item.updatedAt),
  };
}
