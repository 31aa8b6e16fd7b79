// Refutes or accepts a dispute at the acquirer. Refused, with the reason and without a call, when
// the dispute is closed or past its due date; then the dispute is read fresh from the acquirer (its
// status and the answers it offers may have changed since the last poll) and the answer is refused
// when the acquirer no longer offers it. The acquirer's dispute after the answer is stored as an
// import would (one `dispute` notification if the merchant can see a change), and the decision is
// recorded with its audit entry in one transaction.
import type { DisputeDecision } from "../acquirers/contract";
import { recordAuditEntry } from "../audit/audit";
import { db } from "../db";
import { ApiError, invalidParameter } from "../errors";
import { recordReportingCheck, reportingProblemOf } from "../routing/accounts/record-reporting-check";
import { applyAcquirerDispute } from "./apply-acquirer-dispute";
import { assertAnswerable } from "./dispute-rules";
import { loadDisputeToAnswer, type DisputeAction } from "./load-dispute-to-answer";

export async function answerDispute({ merchantId, disputeId, decision, userId = null, apiKeyId = null, mode, accessFor, now = new Date() }: DisputeAction & { decision: DisputeDecision }): Promise<{ status: string }> {
  if (decision !== "refute" && decision !== "accept") throw invalidParameter("decision", "refute or accept");
  const { dispute, reporting } = await loadDisputeToAnswer({ merchantId, disputeId, mode, accessFor });
  assertAnswerable(dispute, now);
  const { client, call, account } = reporting;
  try {
    await applyAcquirerDispute({ account, dispute: await client.dispute(dispute.acquirerDisputeId, call) });
    const fresh = await db().dispute.findUniqueOrThrow({ where: { id: disputeId }, select: { status: true, dueOn: true, answers: true } });
    assertAnswerable(fresh, now);
    if (!fresh.answers.includes(decision))
      throw invalidParameter(
        "decision",
        `${reporting.reporting.label} does not offer to ${decision} this dispute now (${fresh.answers.length ? `it offers: ${fresh.answers.join(", ")}` : "it offers no answer"})`,
      );
    const after = await client.answerDispute(dispute.acquirerDisputeId, decision, call);
    await applyAcquirerDispute({ account, dispute: after });
  } catch (error) {
    // A refusal of ours is not the acquirer's problem: only the acquirer's failures are recorded on the account.
    if (!(error instanceof ApiError)) await recordReportingCheck({ accountId: account.id, problem: reportingProblemOf(error), now });
    throw error;
  }
  await db().$transaction(async (tx) => {
    await tx.dispute.update({ where: { id: disputeId }, data: { decision, decidedAt: now } });
    await recordAuditEntry(tx, { merchantId, userId, apiKeyId, action: decision === "refute" ? "dispute.refuted" : "dispute.accepted", target: disputeId, details: { decision } });
  });
  await recordReportingCheck({ accountId: account.id, problem: null, now });
  const stored = await db().dispute.findUniqueOrThrow({ where: { id: disputeId }, select: { status: true } });
  return { status: stored.status.replace("_", "-") };
}
