// A capture, refund, void or payout whose acquirer answer is unknown (time-out, HTTP 5xx, lost
// connection) is neither approved nor failed: it stays pending, its amount stays reserved, and it
// is settled only by looking it up at the acquirer under its original reference (our operation id).
// Found: the acquirer's answer is recorded. Not found: the acquirer never received it, so it failed
// and releases its reservation. Look-up without an answer: still unknown; after `maxLookups` such
// look-ups the operation is left for an operator (an error log line and a visible state in the back
// office) and keeps its reservation. The merchant's notification follows the settled result.
import { db } from "../db";
import { log } from "../observability/logger";
import { faultPoint } from "../faults/fault-point";
import { lookupOperationOutcome } from "../processors/lookup-operation-outcome";
import { RESPONSE_CODES, type ProcessorName, type ProcessorResult } from "../processors/types";
import { operationResultFields } from "./operation-result-fields";
import { recordFollowUpResult } from "./record-follow-up-result";

/** Look-ups without an answer before an operator is alerted (the reconciliation job runs every minute). */
export const MAX_LOOKUPS_BEFORE_OPERATOR = 10;

export type SettleResult = "approved" | "declined" | "failed" | "unknown" | "operator";

/** Marks a pending operation's outcome as unknown (keeps the time it became unknown when already set). */
export async function markOutcomeUnknown({ operationId, result, now = new Date() }: { operationId: string; result: ProcessorResult; now?: Date }) {
  await db().operation.updateMany({
    where: { id: operationId, status: "pending" },
    data: {
      responseCode: result.responsecode,
      errorMessage: `outcome unknown: ${result.message ?? "no answer"}`,
      // The caller set it before the call; set here too for callers that did not.
      outcomeUnknownSince: (await db().operation.findUnique({ where: { id: operationId }, select: { outcomeUnknownSince: true } }))?.outcomeUnknownSince ?? now,
    },
  });
}

/** Writes a payout's answer on its operation and its payout payment. False when it was no longer pending. */
export async function recordPayoutResult({
  operationId,
  result,
  now = new Date(),
}: {
  operationId: string;
  result: ProcessorResult;
  now?: Date;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const updated = await tx.operation.updateMany({ where: { id: operationId, status: "pending" }, data: operationResultFields(result, now) });
    if (updated.count === 0) return false;
    const operation = await tx.operation.findUniqueOrThrow({ where: { id: operationId }, select: { paymentId: true, amount: true } });
    await tx.payment.update({
      where: { id: operation.paymentId },
      data: {
        status: result.status === "approved" ? "CAPTURED" : result.status === "declined" ? "DECLINED" : "FAILED",
        // Money paid out reduces what the merchant holds.
        balance: result.status === "approved" ? -operation.amount : 0n,
      },
    });
    return true;
  });
}

async function record(type: string, operationId: string, processor: ProcessorName, result: ProcessorResult): Promise<void> {
  if (type === "payout") await recordPayoutResult({ operationId, result });
  else await recordFollowUpResult({ operationId, result, processor });
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
      paymentId: true,
      payment: { select: { processor: true } },
    },
  });
  if (operation.status !== "pending") return operation.status;
  if (operation.type === "authorize") throw new Error(`operation ${operationId} is an authorization: authorizePayment resolves those`);
  const processor = operation.processor ?? operation.payment.processor;
  if (!processor) {
    await record(operation.type, operationId, "finaro", {
      status: "failed",
      failure: "declined",
      responsecode: RESPONSE_CODES.invalidTransaction,
      message: "no processor to look the operation up at",
    });
    return "failed";
  }
  const outcome = await lookupOperationOutcome({ processor, kind: operation.type, operationId });
  faultPoint("reconcile.after-lookup");
  if (outcome.kind === "found") {
    await record(operation.type, operationId, processor, outcome.result);
    return outcome.result.status;
  }
  if (outcome.kind === "not_found") {
    await record(operation.type, operationId, processor, {
      status: "failed",
      failure: "retryable",
      responsecode: RESPONSE_CODES.unavailable,
      message: `${processor} never received it (looked up after the answer was lost)`,
    });
    return "failed";
  }
  const attempts = operation.lookupAttempts + 1;
  const alert = attempts >= maxLookups && !operation.operatorAlertedAt;
  await db().operation.update({
    where: { id: operationId },
    data: {
      lookupAttempts: attempts,
      errorMessage: `outcome unknown: ${attempts} look-up(s) at ${processor} without an answer (${outcome.message})`,
      ...(alert ? { operatorAlertedAt: now } : {}),
    },
  });
  if (alert) {
    // The one alert per operation: an error line for the log pipeline, and operatorAlertedAt for the back office.
    log("reconcile").error(
      `operator needed: ${operation.type} ${operationId} of payment ${operation.paymentId} at ${processor}: ` +
        `outcome unknown after ${attempts} look-ups; its amount stays reserved until it is settled by hand`,
    );
    return "operator";
  }
  return operation.operatorAlertedAt ? "operator" : "unknown";
}

/**
 * Called right after a call whose outcome is unknown: marks the operation, then tries one look-up
 * at once (a 502 after acting is usually found a moment later). Returns the settled status, or
 * "unknown" when the reconciliation job has to go on.
 */
export async function holdUnknownOutcome({ operationId, result }: { operationId: string; result: ProcessorResult }): Promise<SettleResult> {
  await markOutcomeUnknown({ operationId, result });
  return settleUnknownOperation({ operationId });
}
