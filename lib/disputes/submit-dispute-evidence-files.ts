// The merchant API's evidence upload: the multipart body's files as bytes, then submitDisputeEvidence
// (the same rules as the back office: type, size and count refused before anything is stored or
// sent; a dispute closed or past its due date refused saying why), audited with the API key.
import type { Mode } from "../mode";
import { invalidParameter } from "../errors";
import { acquirerRefusal } from "./acquirer-refusal";
import { submitDisputeEvidence } from "./submit-dispute-evidence";
import { DISPUTE_ID } from "../validation/disputes";

/**
 * The body the route reads at most: enough for the largest evidence an acquirer takes (5 MB for
 * Clearhaus, docs/decisions/0196-dispute-evidence-files-for-clearhaus.md) with room for a second
 * acquirer's larger limit and the multipart framing; a file under this but over the acquirer's
 * limit is refused by the acquirer's rule, with its words.
 */
export const EVIDENCE_BODY_MAX_BYTES = 12 * 1024 * 1024;

export async function submitDisputeEvidenceFiles({
  merchantId,
  apiKeyId,
  mode,
  disputeId,
  files,
  comment,
}: {
  merchantId: string;
  apiKeyId: string;
  mode: Mode;
  disputeId: string | undefined;
  files: readonly File[];
  comment?: string;
}): Promise<{ disputeid: string; evidenceids: string[] }> {
  if (!disputeId || !DISPUTE_ID.test(disputeId)) throw invalidParameter("dispute", "no such dispute");
  const evidence = await Promise.all(
    files.map(async (file) => ({ fileName: file.name, contentType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) })),
  );
  const { evidenceIds } = await submitDisputeEvidence({ merchantId, apiKeyId, mode, disputeId, files: evidence, comment }).catch((error: unknown) => {
    throw acquirerRefusal(error);
  });
  return { disputeid: disputeId, evidenceids: evidenceIds };
}
