// An operation (an authorization attempt, capture, refund, void or payout) whose acquirer answer is unknown (time-out, HTTP 5xx, lost
// connection, crash) is neither approved nor failed: it stays pending, its amount stays reserved,
// and it is settled only by the acquirer's own answer to the ORIGINAL request (a look-up by our
// operation id) or by an operator. The rules (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md):
// - a call that may still be in flight (its lease: outcomeUnknownSince .. callEndedAt) is never looked up;
// - found: the acquirer's answer is recorded;
// - not found: closes the operation as failed only where the acquirer's look-up proves it
//   (ProcessorConnector.lookups) and only once the acquirer can no longer act on a request it
//   received late: an authorization after NOT_FOUND_GRACE_MS (a late hold is voided), a capture,
//   refund, void or payout only NOT_FOUND_CLOSE_MS after the end of the call (pending and reserved
//   until then, an operator told after the grace period); the closure is verified by one more
//   look-up a day later, and a verification that never gets an answer ends with an operator;
// - no answer, or a "not found" that proves nothing: still unknown; after `maxLookups` an operator
//   is alerted, and the look-ups go on with back-off (hourly, then daily);
// - no look-up at this acquirer: an operator is alerted at once (the settle tool records the answer).
// The merchant's notification follows the settled result.
import { db, type Tx } from "../db";
import { faultPoint } from "../faults/fault-point";
import { lookupOperationOutcome } from "../routing/lookup-operation-outcome";
import { processorTimeoutMs } from "../acquirers/registry";
import { RESPONSE_CODES, type LookupKind, type ProcessorResult } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";
import { alertOperator, noteLateAnswer, noteUnverified } from "./alert-operator";
import { notifyOperationResult } from "./notify-operation-result";
import { operationResultFields } from "./operation-result-fields";
import { recordAuthorizationAttempt } from "./record-authorization-attempt";
import { recordFollowUpResult } from "./record-follow-up-result";

/** Look-ups without an answer before an operator is alerted (the reconciliation job runs every minute). */
export const MAX_LOOKUPS_BEFORE_OPERATOR = 10;
/** How long after the end of a call a trusted "not found" is still not proof: the acquirer may act late. */
export const NOT_FOUND_GRACE_MS = 5 * 60_000;
/**
 * How long after the end of its call a capture, refund, void or payout that a trusted look-up does
 * not find stays pending and reserved (money review 4, N4): an acquirer that performs a request
 * after the grace period must find its amount still reserved, or the merchant's retry would move
 * the money twice. Looked up hourly meanwhile; an operator is told once the grace period is over.
 */
export const NOT_FOUND_CLOSE_MS = 24 * 60 * 60_000;
/** Added to a call's time-out for its lease: clocks of two processes and the writes around the call. */
export const CALL_LEASE_MARGIN_MS = 15_000;
/** An operation settled without the acquirer's answer is looked up once more after this long. */
export const VERIFY_AFTER_MS = 24 * 60 * 60_000;
/** A verification look-up that gets no answer is tried hourly for this long after the settlement. */
const VERIFY_FOR_MS = 7 * 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

export type SettleResult = "approved" | "declined" | "failed" | "unknown" | "operator";

/** The longest a call to `processor` can be in flight: its time-out plus a margin. */
export function callLeaseMs(processor: AcquirerName): number {
  return processorTimeoutMs(processor) + CALL_LEASE_MARGIN_MS;
}

interface CallTimes {
  outcomeUnknownSince: Date | null;
  callEndedAt: Date | null;
}

/**
 * When the call ended: its recorded end, or, for a process that died mid-call (no end recorded),
 * the end of its lease, the last moment our connection could have been open. Undefined while the
 * call may still be in flight.
 */
export function callEnd(call: CallTimes, processor: AcquirerName, now: Date): Date | undefined {
  if (call.callEndedAt) return call.callEndedAt;
  if (!call.outcomeUnknownSince) return undefined;
  const leaseEnd = new Date(call.outcomeUnknownSince.getTime() + callLeaseMs(processor));
  return leaseEnd <= now ? leaseEnd : undefined;
}

/** The wait before the next look-up after `attempts` unanswered ones: every round, then hourly, then daily. */
export function lookupBackoffMs(attempts: number, maxLookups: number): number {
  if (attempts < maxLookups) return 0;
  if (attempts < maxLookups + 24) return HOUR_MS;
  return 24 * HOUR_MS;
}

/** Marks the end of a call whose answer is unknown (keeps the time it became unknown when already set). */
export async function markOutcomeUnknown({
  operationId,
  result,
  now = new Date(),
}: {
  operationId: string;
  result: ProcessorResult;
  now?: Date;
}) {
  await db().operation.updateMany({
    where: { id: operationId, status: "pending" },
    data: {
      responseCode: result.responsecode,
      errorMessage: `outcome unknown: ${result.message ?? "no answer"}`,
      callEndedAt: now,
      // The caller set it before the call; set here too for callers that did not.
      outcomeUnknownSince:
        (await db().operation.findUnique({ where: { id: operationId }, select: { outcomeUnknownSince: true } }))?.outcomeUnknownSince ??
        now,
    },
  });
}

/**
 * Marks the end of a call after which our own code failed before recording its answer (an
 * exception, not a dead process): the call is over, so a retried step or the reconciliation may
 * look it up at once instead of waiting for its lease to run out.
 */
export async function markCallEnded(operationId: string, now: Date = new Date()): Promise<void> {
  await db()
    .operation.updateMany({ where: { id: operationId, status: "pending", callEndedAt: null }, data: { callEndedAt: now } })
    .catch(() => undefined);
}

export interface RecordPayoutResultOptions {
  operationId: string;
  result: ProcessorResult;
  /** Who gave the answer, for the alert when it contradicts an earlier settlement. */
  source?: string;
  now?: Date;
  /** The caller's transaction; else one of its own. */
  tx?: Tx;
}

/**
 * Writes a payout's answer on its operation and its payout payment, and stores its notification
 * (the outbox row) in the same transaction; returns the notification id (dispatch it after the
 * commit), null without one, or false when the payout was no longer pending (a contradicting
 * answer then alerts an operator).
 */
export async function recordPayoutResult({
  operationId,
  result,
  source = "the acquirer",
  now = new Date(),
  tx: outer,
}: RecordPayoutResultOptions): Promise<string | null | false> {
  const run = async (tx: Tx) => {
    const updated = await tx.operation.updateMany({
      where: { id: operationId, status: "pending" },
      data: operationResultFields(result, now),
    });
    if (updated.count === 0) {
      await noteLateAnswer({ operationId, answer: result, source, now, tx });
      return false;
    }
    const operation = await tx.operation.findUniqueOrThrow({
      where: { id: operationId },
      select: { paymentId: true, amount: true, processor: true, acquirerAccountId: true, notificationUrl: true },
    });
    await tx.payment.update({
      where: { id: operation.paymentId },
      data: {
        processor: operation.processor ?? undefined,
        acquirerAccountId: operation.acquirerAccountId ?? undefined,
        status: result.status === "approved" ? "CAPTURED" : result.status === "declined" ? "DECLINED" : "FAILED",
        // Money paid out reduces what the merchant holds.
        balance: result.status === "approved" ? -operation.amount : 0n,
      },
    });
    return operation.notificationUrl ? notifyOperationResult({ operationId, tx }) : null;
  };
  return outer ? run(outer) : db().$transaction(run);
}

/** Records a settled answer on an operation (with its notification row; an authorization attempt's consequence is its owner's). */
async function record(type: string, operationId: string, processor: AcquirerName | null, result: ProcessorResult, source: string, now: Date) {
  if (type === "payout") await recordPayoutResult({ operationId, result, source, now });
  else if (type === "authorize") await recordAuthorizationAttempt({ operationId, result, source, now });
  else await recordFollowUpResult({ operationId, result, processor, source, now });
}

export interface SettleUnknownOperationOptions {
  operationId: string;
  maxLookups?: number;
  now?: Date;
}

export async function settleUnknownOperation({
  operationId,
  maxLookups = MAX_LOOKUPS_BEFORE_OPERATOR,
  now = new Date(),
}: SettleUnknownOperationOptions): Promise<SettleResult> {
  const operation = await db().operation.findUniqueOrThrow({
    where: { id: operationId },
    select: {
      type: true,
      status: true,
      processor: true,
      lookupAttempts: true,
      operatorAlertedAt: true,
      outcomeUnknownSince: true,
      callEndedAt: true,
      responseCode: true,
      payment: { select: { processor: true } },
    },
  });
  if (operation.status !== "pending") return operation.status;
  const processor = operation.processor ?? operation.payment.processor;
  if (!processor) {
    await record(
      operation.type,
      operationId,
      null,
      {
        status: "failed",
        failure: "declined",
        responsecode: RESPONSE_CODES.invalidTransaction,
        message: "no processor to look the operation up at",
      },
      "the service",
      now,
    );
    return "failed";
  }
  const ended = callEnd(operation, processor, now);
  // The call may still be in flight (its lease has not run out): looking it up now could find
  // nothing while the acquirer is still at work.
  if (!ended && operation.outcomeUnknownSince) return operation.operatorAlertedAt ? "operator" : "unknown";
  const outcome = await lookupOperationOutcome({ processor, kind: operation.type as LookupKind, operationId });
  faultPoint("reconcile.after-lookup");
  if (outcome.kind === "found") {
    await record(operation.type, operationId, processor, outcome.result, `a look-up at ${processor}`, now);
    return outcome.result.status;
  }
  if (outcome.kind === "no_lookup") {
    await db().operation.updateMany({
      // Only while still pending: a concurrent settler (a retried step, the round) may have recorded the answer meanwhile.
      where: { id: operationId, status: "pending" },
      data: {
        errorMessage: `outcome unknown: ${processor} offers no look-up of its ${operation.type} operations; an operator checks its reports and settles it`,
        // Looked at again daily: a configuration that gains a look-up settles it without an operator.
        nextLookupAt: new Date(now.getTime() + 24 * HOUR_MS),
      },
    });
    await alertOperator({
      operationId,
      reason: `${processor} offers no look-up of its ${operation.type} operations by our reference (${outcome.message})`,
      now,
    });
    return "operator";
  }
  if (outcome.kind === "not_found" && outcome.proof && operation.type === "authorize") {
    // A hold is voidable: a proven "not found" closes the attempt at once (the routing may go on),
    // and the late-approval reconciliation, which reads the "indeterminate" class, voids an
    // approval that appears later (lib/routing/reconcile-timed-out-authorizations.ts).
    await record(
      operation.type,
      operationId,
      processor,
      {
        status: "failed",
        failure: "indeterminate",
        // The code of what happened to the call (68 time-out, 91 unavailable).
        responsecode: operation.responseCode ?? RESPONSE_CODES.unavailable,
        message: `${processor} had not received it when looked up; a late approval is voided`,
      },
      `a look-up at ${processor}`,
      now,
    );
    return "failed";
  }
  if (outcome.kind === "not_found" && outcome.proof) {
    const callEndedAt = ended ?? now;
    const graceEnd = new Date(callEndedAt.getTime() + NOT_FOUND_GRACE_MS);
    const closeAt = new Date(callEndedAt.getTime() + NOT_FOUND_CLOSE_MS);
    if (closeAt <= now) {
      await record(
        operation.type,
        operationId,
        processor,
        {
          status: "failed",
          failure: "retryable",
          responsecode: RESPONSE_CODES.unavailable,
          message: `${processor} never received it (not found ${Math.round((now.getTime() - callEndedAt.getTime()) / 60_000)} min after the call ended)`,
        },
        `a look-up at ${processor}`,
        now,
      );
      // Settled without the acquirer's answer: one more look-up later catches an acquirer that acted after all.
      await db().operation.update({ where: { id: operationId }, data: { verifyLookupAt: new Date(now.getTime() + VERIFY_AFTER_MS) } });
      return "failed";
    }
    // Not proof yet: the acquirer may still act on a request it received late, and the merchant must
    // not be told "failed" (a retry would then move the money twice). Looked up again when the grace
    // period ends, then hourly; past the grace period an operator may settle it from the acquirer's report.
    const pastGrace = graceEnd <= now;
    const nextLookupAt = pastGrace ? new Date(Math.min(now.getTime() + HOUR_MS, closeAt.getTime())) : graceEnd;
    await db().operation.updateMany({
      // Only while still pending: a concurrent settler (a retried step, the round) may have recorded the answer meanwhile.
      where: { id: operationId, status: "pending" },
      data: {
        errorMessage: `outcome unknown: not found at ${processor} yet; it stays pending and reserved while ${processor} may still act, and is closed as failed if still not found at ${closeAt.toISOString()}`,
        nextLookupAt,
      },
    });
    if (pastGrace) {
      await alertOperator({
        operationId,
        reason: `not found at ${processor} ${Math.round((now.getTime() - callEndedAt.getTime()) / 60_000)} min after the call ended; closed as failed at ${closeAt.toISOString()} if still not found, or settle it earlier from ${processor}'s report`,
        now,
      });
      return "operator";
    }
    return operation.operatorAlertedAt ? "operator" : "unknown";
  }
  const detail =
    outcome.kind === "not_found"
      ? `not found, which proves nothing at ${processor} (it may have acted late or its look-up is unreliable)`
      : outcome.message;
  const attempts = operation.lookupAttempts + 1;
  await db().operation.updateMany({
    where: { id: operationId, status: "pending" },
    data: {
      lookupAttempts: attempts,
      errorMessage: `outcome unknown: ${attempts} look-up(s) at ${processor} without an answer (${detail})`,
      nextLookupAt: new Date(now.getTime() + lookupBackoffMs(attempts, maxLookups)),
    },
  });
  if (attempts >= maxLookups) {
    await alertOperator({ operationId, reason: `outcome unknown after ${attempts} look-ups (${detail})`, now });
    return "operator";
  }
  return operation.operatorAlertedAt ? "operator" : "unknown";
}

/**
 * The verification look-up of an operation settled without the acquirer's answer (a trusted "not
 * found", an operator): an answer that contradicts the settlement alerts an operator with both
 * facts. Returns true when it alerted.
 */
export async function verifySettledOperation({ operationId, now = new Date() }: { operationId: string; now?: Date }): Promise<boolean> {
  const operation = await db().operation.findUniqueOrThrow({
    where: { id: operationId },
    select: { type: true, status: true, processor: true, verifyLookupAt: true, completedAt: true },
  });
  if (!operation.verifyLookupAt || operation.status === "pending" || !operation.processor) return false;
  const outcome = await lookupOperationOutcome({ processor: operation.processor, kind: operation.type as LookupKind, operationId });
  if (outcome.kind === "unknown") {
    // Tried again in an hour (never every round); after VERIFY_FOR_MS without an answer an operator
    // checks the acquirer's report instead.
    const settledAt = operation.completedAt ?? now;
    const giveUp = now.getTime() - settledAt.getTime() > VERIFY_FOR_MS;
    await db().operation.update({ where: { id: operationId }, data: { verifyLookupAt: giveUp ? null : new Date(now.getTime() + HOUR_MS) } });
    if (giveUp) {
      await noteUnverified({
        operationId,
        why: `the verification look-up at ${operation.processor} got no answer for ${Math.round(VERIFY_FOR_MS / (24 * HOUR_MS))} days (${outcome.message})`,
        now,
      });
    }
    return false;
  }
  await db().operation.update({ where: { id: operationId }, data: { verifyLookupAt: null } });
  if (outcome.kind !== "found") return false;
  return noteLateAnswer({ operationId, answer: outcome.result, source: `the verification look-up at ${operation.processor}`, now });
}

/**
 * Called right after a call whose outcome is unknown: marks the end of the call, then tries one
 * look-up at once (a 502 after acting is usually found a moment later). Returns the settled
 * status, or "unknown" / "operator" when the reconciliation job or an operator has to go on.
 */
export async function holdUnknownOutcome({ operationId, result }: { operationId: string; result: ProcessorResult }): Promise<SettleResult> {
  await markOutcomeUnknown({ operationId, result });
  return settleUnknownOperation({ operationId });
}
