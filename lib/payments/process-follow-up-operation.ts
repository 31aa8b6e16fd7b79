// Runs an accepted capture, refund or void at the processor that authorized the payment and
// records the answer on the operation and payment (lib/jobs/run-follow-up-operation.ts calls it).
// Idempotent: the processor is called only while the operation is pending.
import { NonRetriableError } from "inngest";
import { db } from "../db";
import { runFollowUp } from "../routing/follow-up";
import { faultPoint } from "../faults/fault-point";
import { isOutcomeUnknown } from "../routing/lookup-operation-outcome";
import { claimRefundAfterCaptures } from "./claim-refund-after-captures";
import { recordFollowUpResult } from "./record-follow-up-result";
import { holdUnknownOutcome, markCallEnded, settleUnknownOperation } from "./settle-unknown-operation";
import { isFollowUpType } from "./follow-ups/kinds";

/** The operation's new status, "waiting" (a refund waiting for its capture), or null when it was no longer pending (a retried step). */
export async function processFollowUpOperation({ operationId }: { operationId: string }): Promise<string | null> {
  const operation = await db().operation.findUnique({
    where: { id: operationId },
    select: {
      type: true,
      status: true,
      amount: true,
      outcomeUnknownSince: true,
      payment: { select: { id: true, currency: true, processor: true, textOnStatement: true } },
    },
  });
  // A retry cannot fix these: the job fails at once instead of retrying.
  if (!operation) throw new NonRetriableError(`operation ${operationId} does not exist`);
  if (operation.status !== "pending") return null;
  if (!isFollowUpType(operation.type)) {
    throw new NonRetriableError(`operation ${operationId} is a ${operation.type}, not a follow-up`);
  }
  // A retried step after an unknown outcome looks the operation up; it never sends it again.
  if (operation.outcomeUnknownSince) return settleUnknownOperation({ operationId });
  const processor = operation.payment.processor;
  faultPoint("follow-up.before-call");
  // From here until the answer is recorded the outcome is unknown: a crash in between leaves the
  // mark, and the retried step looks the operation up instead of sending it a second time. The mark
  // is a claim: of two runs of one operation (a retry overlapping a slow first try, a re-driven
  // event) only the one that set it calls the acquirer; the other looks the operation up.
  // A refund accepted while its capture was pending goes out only once the capture is approved
  // (claim-refund-after-captures.ts): it may wait, or fail with the capture's reason.
  if (operation.type === "refund") {
    const claim = await claimRefundAfterCaptures({ operationId });
    if (claim.kind === "waiting") return "waiting";
    if (claim.kind === "capture-failed") return claim.status;
    if (claim.kind === "taken") return settleUnknownOperation({ operationId });
  } else {
    const claimed = await db().operation.updateMany({
      where: { id: operationId, status: "pending", outcomeUnknownSince: null },
      data: { outcomeUnknownSince: new Date() },
    });
    if (claimed.count === 0) return settleUnknownOperation({ operationId });
  }
  // A payment without an authorizing processor is answered by runFollowUp (one place decides it).
  const result = await runFollowUp({
    payment: { id: operation.payment.id, currency: operation.payment.currency, processor },
    operation: operation.type,
    amount: operation.amount,
    operationId,
    textOnStatement: operation.payment.textOnStatement ?? undefined,
  });
  try {
    faultPoint("follow-up.after-call");
    // Time-out, 5xx, lost connection: the acquirer may have acted. Held pending (amount reserved) and looked up.
    if (isOutcomeUnknown(result)) return await holdUnknownOutcome({ operationId, result });
    await recordFollowUpResult({ operationId, result, processor });
    return result.status;
  } catch (error) {
    await markCallEnded(operationId);
    throw error;
  }
}
