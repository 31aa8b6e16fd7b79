// One dispute for the merchant API: the merchant's own, of the key's mode. Another merchant's, the
// other mode's and a malformed id all answer "no such dispute", so nothing can be learnt about them.
import { invalidParameter } from "../errors";
import type { Mode } from "../mode";
import { DISPUTE_ID, type DisputeBody } from "../validation/disputes";
import { disputeResource } from "./dispute-resource";
import { listDisputes } from "./list-disputes";

export async function getDisputeOrThrow({ merchantId, mode, disputeId }: { merchantId: string; mode: Mode; disputeId: string | undefined }): Promise<DisputeBody> {
  if (!disputeId || !DISPUTE_ID.test(disputeId)) throw invalidParameter("dispute", "no such dispute");
  const [item] = await listDisputes({ merchantId, mode, disputeId, limit: 1 });
  if (!item) throw invalidParameter("dispute", "no such dispute");
  return disputeResource(item, mode);
}
