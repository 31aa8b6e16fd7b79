// An evidence file of a dispute for download from the back office: only a file of the merchant's
// dispute of the mode shown (another merchant's or mode's answers "not found", as one that does not
// exist), served with getDisputeEvidenceFile's headers (attachment, nosniff, sandboxed CSP).
import { NotFoundError } from "../../auth/actor";
import { db } from "../../db";
import { getDisputeEvidenceFile } from "../../disputes/get-dispute-evidence-file";
import type { Mode } from "../../mode";

export async function downloadDisputeEvidence({
  merchantId,
  mode,
  disputeId,
  evidenceId,
}: {
  merchantId: string;
  mode: Mode;
  disputeId: string;
  evidenceId: string;
}): Promise<{ bytes: Uint8Array; headers: Record<string, string> }> {
  const owned = await db().disputeEvidence.findFirst({ where: { id: evidenceId, disputeId, dispute: { merchantId, mode } }, select: { id: true } });
  if (!owned) throw new NotFoundError("Evidence file");
  return getDisputeEvidenceFile({ merchantId, evidenceId });
}
