// Evidence files (and an optional comment) for an open dispute, sent to the acquirer. Checked first
// against the acquirer's rules (type, size, count: dispute-rules.ts): a refused file stores and
// sends nothing. The files are stored before they are sent (sentAt null), so nothing a merchant
// uploaded is lost if the acquirer is not reached; the audit entry and sentAt are written together
// once the acquirer took them (docs/decisions/0199-dispute-evidence-stored-in-the-database.md).
import type { DisputeEvidenceFile } from "../acquirers/contract";
import { recordAuditEntry } from "../audit/audit";
import { db } from "../db";
import { invalidParameter } from "../errors";
import { newId } from "../ids";
import { recordReportingCheck, reportingProblemOf } from "../routing/accounts/record-reporting-check";
import { assertAnswerable, checkEvidenceFiles } from "./dispute-rules";
import { loadDisputeToAnswer, type DisputeAction } from "./load-dispute-to-answer";

export const MAX_COMMENT_LENGTH = 5000;

export async function submitDisputeEvidence({ merchantId, disputeId, files, comment, userId = null, apiKeyId = null, mode, accessFor, now = new Date() }: DisputeAction & { files: readonly DisputeEvidenceFile[]; comment?: string }): Promise<{ evidenceIds: string[] }> {
  const { dispute, reporting } = await loadDisputeToAnswer({ merchantId, disputeId, mode, accessFor });
  assertAnswerable(dispute, now);
  const text = comment?.trim();
  if (text !== undefined && text.length > MAX_COMMENT_LENGTH) throw invalidParameter("comment", `at most ${MAX_COMMENT_LENGTH} characters`);
  const alreadySent = await db().disputeEvidence.count({ where: { disputeId, sentAt: { not: null } } });
  const checked = checkEvidenceFiles(files, reporting.reporting.evidence, reporting.reporting.label, alreadySent);
  const rows = checked.map((file) => ({
    id: newId(),
    disputeId,
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.size,
    sha256: file.sha256,
    bytes: Buffer.from(file.bytes),
    userId,
  }));
  await db().disputeEvidence.createMany({ data: rows });
  const ids = rows.map((row) => row.id);
  try {
    await reporting.client.submitEvidence(
      dispute.acquirerDisputeId,
      { files: checked.map(({ fileName, contentType, bytes }) => ({ fileName, contentType, bytes })), ...(text ? { comment: text } : {}) },
      reporting.call,
    );
  } catch (error) {
    const problem = reportingProblemOf(error);
    await db().disputeEvidence.updateMany({ where: { id: { in: ids } }, data: { sendError: problem.slice(0, 500) } });
    await recordReportingCheck({ accountId: reporting.account.id, problem, now });
    throw error;
  }
  await db().$transaction(async (tx) => {
    await tx.disputeEvidence.updateMany({ where: { id: { in: ids } }, data: { sentAt: now, sendError: null } });
    await recordAuditEntry(tx, {
      merchantId,
      userId,
      apiKeyId,
      action: "dispute.evidence_uploaded",
      target: disputeId,
      details: {
        files: checked.map((file) => ({ fileName: file.fileName, contentType: file.contentType, size: file.size, sha256: file.sha256 })),
        ...(text ? { comment: text } : {}),
      },
    });
  });
  await recordReportingCheck({ accountId: reporting.account.id, problem: null, now });
  return { evidenceIds: ids };
}
