// Runs an accepted capture, refund or void at the processor that authorized the payment and
// records the answer on the operation and payment (lib/jobs/run-follow-up-operation.ts calls it).
// Idempotent: the processor is called only while the operation is pending.
import { NonRetriableError } from "inngest";
import { db } from "../db";
import { runFollowUp } from "../routing/follow-up";
import { faultPoint } from "../faults/fault-point";
import { isOutcomeUnknown } from "../routing/lookup-operation-outcome";
import { claimRefundAfterCaptures } from "./claim-refund-after-captures";
import { recordFollowUpResultAndNotification } from "./record-follow-up-result";
import type { AcquirerName } from "../acquirers/names";
import { holdUnknownOutcome, markCallEnded, settleUnknownOperation } from "./settle-unknown-operation";
import { isFollowUpType } from "./follow-ups/kinds";

/** The operation's new status, "waiting" (a refund waiting for its capture), or null when it was no longer pending (a retried step). */
export async function processFollowUpOperation({ operationId }: { operationId: string }): Promise<string | null> {
  return (await processFollowUp({ operationId })).status;
}

export interface FollowUpProcessed {
  /** As processFollowUpOperation's answer. */
  status: string | null;
  /**
   * The notification stored with the answer, when this run stored one; undefined otherwise (a
   * retried run, an unknown outcome, no address on the operation): the caller looks it up.
   */
  notificationId?: string;
}

/** processFollowUpOperation, telling the job which notification it stored (no read to find it, issue 37). */
export async function processFollowUp({ operationId }: { operationId: string }): Promise<FollowUpProcessed> {
  // The operation and its payment in one statement (two through the ORM's relation load, issue 37).
  const [row] = await db().$queryRaw<
    {
      type: string;
      status: string;
      amount: bigint;
      outcomeUnknownSince: Date | null;
      paymentId: string;
      currency: string;
      processor: AcquirerName | null;
      textOnStatement: string | null;
    }[]
  >`
    SELECT o."type"::text AS "type", o."status"::text AS "status", o."amount", o."outcomeUnknownSince",
           p."id" AS "paymentId", p."currency", p."processor"::text AS "processor", p."textOnStatement"
    FROM "Operation" o JOIN "Payment" p ON p."id" = o."paymentId"
    WHERE o."id" = ${operationId}`;
  const operation = row && {
    ...row,
    payment: { id: row.paymentId, currency: row.currency, processor: row.processor, textOnStatement: row.textOnStatement },
  };
  // A retry cannot fix these: the job fails at once instead of retrying.
  if (!operation) throw new NonRetriableError(`operation ${operationId} does not exist`);
  if (operation.status !== "pending") return { status: null };
  if (!isFollowUpType(operation.type)) {
    throw new NonRetriableError(`operation ${operationId} is a ${operation.type}, not a follow-up`);
  }
  // A retried step after an unknown outcome looks the operation up; it never sends it again.
  if (operation.outcomeUnknownSince) return { status: await settleUnknownOperation({ operationId }) };
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
    if (claim.kind === "waiting") return { status: "waiting" };
    if (claim.kind === "capture-failed") return { status: claim.status };
    if (claim.kind === "taken") return { status: await settleUnknownOperation({ operationId }) };
  } else {
    const claimed = await db().operation.updateMany({
      where: { id: operationId, status: "pending", outcomeUnknownSince: null },
      data: { outcomeUnknownSince: new Date() },
    });
    if (claimed.count === 0) return { status: await settleUnknownOperation({ operationId }) };
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
    if (isOutcomeUnknown(result)) return { status: await holdUnknownOutcome({ operationId, result }) };
    const { notificationId } = await recordFollowUpResultAndNotification({ operationId, result, processor });
    // Only a stored row spares the look-up: an operation without an address of its own (accepted
    // before addresses were stored on operations) is resolved by notifyOperationResult as before.
    return { status: result.status, notificationId: notificationId ?? undefined };
  } catch (error) {
    await markCallEnded(operationId);
    throw error;
  }
}
