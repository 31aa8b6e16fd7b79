// The merchant API's decision on a dispute: answerDispute (the back office's rules: closed or past
// its due date refused saying why, an answer the acquirer no longer offers refused by name), audited
// with the API key, then the dispute as it stands afterwards.
import type { DisputeDecision } from "../acquirers/contract";
import { invalidParameter } from "../errors";
import type { Mode } from "../mode";
import { DISPUTE_ID, type DisputeBody } from "../validation/disputes";
import { acquirerRefusal } from "./acquirer-refusal";
import { answerDispute } from "./answer-dispute";
import { getDisputeOrThrow } from "./get-dispute-or-throw";

export async function decideDispute({
  merchantId,
  apiKeyId,
  mode,
  disputeId,
  decision,
}: {
  merchantId: string;
  apiKeyId: string;
  mode: Mode;
  disputeId: string | undefined;
  decision: DisputeDecision;
}): Promise<DisputeBody> {
  if (!disputeId || !DISPUTE_ID.test(disputeId)) throw invalidParameter("dispute", "no such dispute");
  await answerDispute({ merchantId, apiKeyId, mode, disputeId, decision }).catch((error: unknown) => {
    throw acquirerRefusal(error);
  });
  return getDisputeOrThrow({ merchantId, mode, disputeId });
}
