// A comment on an open dispute, sent to the acquirer (with no file) and audited with its text.
import { recordAuditEntry } from "../audit/audit";
import { db } from "../db";
import { invalidParameter } from "../errors";
import { recordReportingCheck, reportingProblemOf } from "../routing/accounts/record-reporting-check";
import { assertAnswerable } from "./dispute-rules";
import { loadDisputeToAnswer, type DisputeAction } from "./load-dispute-to-answer";
import { MAX_COMMENT_LENGTH } from "./submit-dispute-evidence";

export async function commentOnDispute({ merchantId, disputeId, comment, userId = null, accessFor, now = new Date() }: DisputeAction & { comment: string }): Promise<void> {
  const text = comment.trim();
  if (!text) throw invalidParameter("comment", "empty");
  if (text.length > MAX_COMMENT_LENGTH) throw invalidParameter("comment", `at most ${MAX_COMMENT_LENGTH} characters`);
  const { dispute, reporting } = await loadDisputeToAnswer({ merchantId, disputeId, accessFor });
  assertAnswerable(dispute, now);
  try {
    await reporting.client.submitEvidence(dispute.acquirerDisputeId, { files: [], comment: text }, reporting.call);
  } catch (error) {
    await recordReportingCheck({ accountId: reporting.account.id, problem: reportingProblemOf(error), now });
    throw error;
  }
  await db().$transaction((tx) => recordAuditEntry(tx, { merchantId, userId, action: "dispute.commented", target: disputeId, details: { comment: text } }));
  await recordReportingCheck({ accountId: reporting.account.id, problem: null, now });
}
