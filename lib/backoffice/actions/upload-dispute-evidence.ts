// Back office, a dispute's page: an owner or developer uploads evidence files (and an optional
// comment) for an open dispute. The files' type, size and count are checked by the use case against
// the acquirer's rules (nothing stored or sent when one is refused); it sends them and audits it.
import { z } from "zod";
import type { Actor } from "../../auth/actor";
import type { DisputeEvidenceFile } from "../../acquirers/contract";
import { MAX_COMMENT_LENGTH, submitDisputeEvidence } from "../../disputes/submit-dispute-evidence";
import type { ReportingAccessFor } from "../../routing/accounts/reporting-access";
import { assertMayAnswerDispute, disputeIdSchema, withDisputeErrors } from "./dispute-action";

const uploadInput = z.object({
  disputeId: disputeIdSchema,
  comment: z.string().trim().max(MAX_COMMENT_LENGTH, `Use at most ${MAX_COMMENT_LENGTH} characters`).optional(),
});

/** A file as the form sent it (a browser File): its name, declared type and bytes. */
export interface UploadedFile {
  name: string;
  type: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export async function uploadDisputeEvidence({
  actor,
  input,
  files,
  accessFor,
  now,
}: {
  actor: Actor;
  input: Record<string, string>;
  /** The form's file inputs; an input left empty (no name, no bytes) is not a file. */
  files: readonly UploadedFile[];
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<{ evidenceIds: string[] }> {
  const { disputeId, comment } = uploadInput.parse(input);
  await assertMayAnswerDispute(actor, disputeId);
  const chosen = files.filter((file) => file.name !== "" || file.size > 0);
  const evidence: DisputeEvidenceFile[] = await Promise.all(
    chosen.map(async (file) => ({ fileName: file.name, contentType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) })),
  );
  return withDisputeErrors(() =>
    submitDisputeEvidence({ merchantId: actor.merchantId, disputeId, files: evidence, comment: comment || undefined, userId: actor.userId, accessFor, now }),
  );
}
