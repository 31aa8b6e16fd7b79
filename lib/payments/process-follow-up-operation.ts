// Runs an accepted capture, refund or void at the processor that authorized the payment and
// records the answer on the operation and payment (lib/jobs/run-follow-up-operation.ts calls it).
// Idempotent: the processor is called only while the operation is pending.
import { NonRetriableError } from "inngest";
import { hotSql, Prisma } from "../db";
import { latestAuthorization, NAMEABLE_X, runFollowUp, type FollowUpAuthorization } from "../routing/follow-up";
import { faultPoint } from "../faults/fault-point";
import { isOutcomeUnknown } from "../routing/lookup-operation-outcome";
import { claimRefundAfterCaptures } from "./claim-refund-after-captures";
import { FOLLOW_UP_FACTS_COLUMNS, recordFollowUpResultAndNotification, type FollowUpFacts } from "./record-follow-up-result";
import type { AcquirerName } from "../acquirers/names";
import type { NotificationForAttempt } from "../notifications/deliver-notification-attempt";
import { holdUnknownOutcome, markCallEnded, settleUnknownOperation } from "./settle-unknown-operation";
import { FOLLOW_UP_TYPES_SQL, isFollowUpType, type FollowUpType } from "./follow-ups/kinds";

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
  /** That notification as its first attempt reads it, when the record could hand it over (decision 0215). */
  firstAttempt?: NotificationForAttempt;
}

interface ClaimedFollowUp {
  type: FollowUpType;
  amount: bigint;
  payment: { id: string; currency: string; processor: AcquirerName | null; textOnStatement: string | null };
  /** What the record needs besides the answer, read with the claim (no read before the record). */
  facts: FollowUpFacts;
  /** The authorization the call names, when the claim read it (a capture or void): runFollowUp reads nothing then. */
  authorization?: FollowUpAuthorization | null;
}

/** processFollowUpOperation, telling the job which notification it stored (no read to find it, issue 37). */
export async function processFollowUp({ operationId }: { operationId: string }): Promise<FollowUpProcessed> {
  faultPoint("follow-up.before-call");
  // From the claim until the answer is recorded the outcome is unknown: a crash in between leaves
  // the mark (outcomeUnknownSince), and the retried run looks the operation up instead of sending it
  // a second time. The mark is a claim: of two runs of one operation (a retry overlapping a slow
  // first try, a re-driven event) only the one that set it calls the acquirer; the other looks the
  // operation up. A capture or void is claimed with what its call needs of the payment in one
  // statement (issue 37); anything else (a refund, a retried run, a missing row) is read first.
  const claimed = (await claimCaptureOrVoid(operationId)) ?? (await readThenClaim(operationId));
  if ("status" in claimed) return claimed;
  const { payment } = claimed;
  // A payment without an authorizing processor is answered by runFollowUp (one place decides it).
  const processor = payment.processor;
  const result = await runFollowUp({
    payment: { id: payment.id, currency: payment.currency, processor },
    operation: claimed.type,
    amount: claimed.amount,
    operationId,
    textOnStatement: payment.textOnStatement ?? undefined,
    authorization: claimed.authorization,
  });
  try {
    faultPoint("follow-up.after-call");
    // Time-out, 5xx, lost connection: the acquirer may have acted. Held pending (amount reserved) and looked up.
    if (isOutcomeUnknown(result)) return { status: await holdUnknownOutcome({ operationId, result }) };
    const { notificationId, firstAttempt } = await recordFollowUpResultAndNotification({ operationId, result, processor, facts: claimed.facts });
    // Only a stored row spares the look-up: an operation without an address of its own (accepted
    // before addresses were stored on operations) is resolved by notifyOperationResult as before.
    return { status: result.status, notificationId: notificationId ?? undefined, ...(firstAttempt ? { firstAttempt } : {}) };
  } catch (error) {
    await markCallEnded(operationId);
    throw error;
  }
}

type ClaimRow = FollowUpFacts & {
  status: string;
  amount: bigint;
  outcomeUnknownSince: Date | null;
  paymentId: string;
  currency: string;
  processor: AcquirerName | null;
  textOnStatement: string | null;
};

/** A ClaimRow of the operation `o` and its payment `p`, the same for the claim and the read. */
const CLAIM_ROW_COLUMNS = Prisma.sql`
  ${FOLLOW_UP_FACTS_COLUMNS}, o."status"::text AS "status", o."amount", o."outcomeUnknownSince",
  p."currency", p."processor"::text AS "processor", p."textOnStatement"`;

function asClaimed(row: ClaimRow, type: FollowUpType): ClaimedFollowUp {
  const { paymentId, notificationUrl, responseId, merchantId, mode, merchantPaymentId } = row;
  return {
    type,
    amount: row.amount,
    payment: { id: paymentId, currency: row.currency, processor: row.processor, textOnStatement: row.textOnStatement },
    facts: { paymentId, type, notificationUrl, responseId, merchantId, mode, merchantPaymentId },
  };
}

/**
 * The common case in one statement: a pending capture or void not yet claimed, claimed, with the
 * authorization its call names read and, when nameable, named on it (what runFollowUp's own read
 * would do in a second statement, issue 37). The authorization is read in the claim's snapshot:
 * an authorization's row does not change once approved, and the payment's processor is set with it.
 * The status is compared as text so the primary key finds the row, not the status index (decision 0237).
 */
async function claimCaptureOrVoid(operationId: string): Promise<ClaimedFollowUp | undefined> {
  const [row] = await hotSql().$queryRaw<(ClaimRow & { authorization: FollowUpAuthorization | null })[]>`
    WITH "x" AS (${latestAuthorization(
      Prisma.sql`(SELECT "paymentId" FROM "Operation" WHERE "id" = ${operationId})`,
      Prisma.sql`(SELECT py."processor" FROM "Payment" py JOIN "Operation" op ON op."paymentId" = py."id" WHERE op."id" = ${operationId})`,
    )})
    UPDATE "Operation" o SET "outcomeUnknownSince" = ${new Date()},
      "acquirerAccountId" = CASE WHEN ${NAMEABLE_X} THEN x."accountId" ELSE o."acquirerAccountId" END,
      "referencedOperationId" = CASE WHEN ${NAMEABLE_X} THEN x."id" ELSE o."referencedOperationId" END
    FROM "Payment" p LEFT JOIN "x" ON true
    WHERE o."id" = ${operationId} AND p."id" = o."paymentId"
      AND o."status"::text = 'pending' AND o."outcomeUnknownSince" IS NULL
      AND o."type" IN (${FOLLOW_UP_TYPES_SQL}) AND o."type" <> 'refund'
    RETURNING ${CLAIM_ROW_COLUMNS},
      CASE WHEN x."id" IS NULL THEN NULL ELSE json_build_object(
        'id', x."id", 'processorReference', x."processorReference", 'authorizationCode', x."authorizationCode",
        'accountId', x."accountId", 'customerIpAddress', x."customerIpAddress", 'account', x."account", 'named', ${NAMEABLE_X}) END AS "authorization"`;
  return row && isFollowUpType(row.type) ? { ...asClaimed(row, row.type), authorization: row.authorization } : undefined;
}

/** Every other case: what the operation is, then its own claim (or what to answer instead). */
async function readThenClaim(operationId: string): Promise<ClaimedFollowUp | FollowUpProcessed> {
  const [row] = await hotSql().$queryRaw<ClaimRow[]>`
    SELECT ${CLAIM_ROW_COLUMNS}
    FROM "Operation" o JOIN "Payment" p ON p."id" = o."paymentId"
    WHERE o."id" = ${operationId}`;
  // A retry cannot fix these: the job fails at once instead of retrying.
  if (!row) throw new NonRetriableError(`operation ${operationId} does not exist`);
  if (row.status !== "pending") return { status: null };
  if (!isFollowUpType(row.type)) throw new NonRetriableError(`operation ${operationId} is a ${row.type}, not a follow-up`);
  // A retried run after an unknown outcome looks the operation up; it never sends it again.
  if (row.outcomeUnknownSince) return { status: await settleUnknownOperation({ operationId }) };
  // A refund accepted while its capture was pending goes out only once the capture is approved
  // (claim-refund-after-captures.ts): it may wait, or fail with the capture's reason.
  if (row.type === "refund") {
    const claim = await claimRefundAfterCaptures({ operationId });
    if (claim.kind === "waiting") return { status: "waiting" };
    if (claim.kind === "capture-failed") return { status: claim.status };
    if (claim.kind === "taken") return { status: await settleUnknownOperation({ operationId }) };
    return asClaimed(row, row.type);
  }
  // A capture or void the first statement did not claim, pending and unmarked when read: another
  // run claimed it in between. It is looked up, never sent twice.
  return { status: await settleUnknownOperation({ operationId }) };
}
