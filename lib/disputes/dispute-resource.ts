// A dispute as the merchant API shows it (lib/validation/disputes.ts): the notification's fields
// from the same row, plus the answer given here, the evidence count and when it last changed.
import type { Mode } from "../mode";
import { disputeFields } from "../notifications/bodies";
import { formatUtcTimestamp } from "../notifications/format";
import type { DisputeBody } from "../validation/disputes";
import type { DisputeListItem } from "./list-disputes";

export function disputeResource(item: DisputeListItem, mode: Mode): DisputeBody {
  return {
    ...disputeFields(item),
    mode,
    decision: (item.decision ?? "") as DisputeBody["decision"],
    evidencefiles: item.evidenceFiles,
    updated: formatUtcTimestamp(item.updatedAt),
  };
}
