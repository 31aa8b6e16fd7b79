// After an authorization timed out, the acquirer may still have approved it, and the payment may
// meanwhile have been approved elsewhere (the routing tried the next processor) or have failed.
// Either way that late approval holds the cardholder's funds for nothing, so it is looked up by our
// operation id and voided. The operation keeps its status (failed, as the payment saw it); the
// outcome is written to its errorMessage, which also marks it as reconciled.
import { db } from "../db";
import { log } from "../observability/logger";
import { AcquirerAccountMissingError, getAccountConnector } from "./accounts/account-connector";
import { lookupOperationOutcome } from "./lookup-operation-outcome";
import { ProcessorNotConfiguredError } from "../acquirers/registry";
import { RESPONSE_CODES } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";

export const RECONCILED_MARK = "reconciled:";

export interface ReconcileTimedOutAuthorizationsOptions {
  /** Only attempts at least this old (the acquirer may still be working on younger ones). Default 5 minutes. */
  olderThanMs?: number;
  limit?: number;
  now?: Date;
}

export type ReconcileOutcome = "voided" | "void_failed" | "not_found" | "declined" | "unsupported" | "lookup_failed";

export interface ReconciledAttempt {
  operationId: string;
  processor: AcquirerName;
  outcome: ReconcileOutcome;
}

/** The ids of timed-out authorization attempts not yet reconciled, oldest first. */
export async function findTimedOutAuthorizations({
  olderThanMs = 5 * 60_000,
  limit = 100,
  now = new Date(),
}: ReconcileTimedOutAuthorizationsOptions = {}): Promise<string[]> {
  const candidates = await db().operation.findMany({
    where: {
      type: "authorize",
      status: "failed",
      // Time-outs (68) and every other answer that leaves the outcome unknown (a 5xx, a lost
      // connection: 91), which authorizePayment records with failure "indeterminate".
      OR: [{ responseCode: RESPONSE_CODES.timeout }, { errorMessage: { startsWith: "indeterminate" } }],
      processor: { not: null },
      createdAt: { lte: new Date(now.getTime() - olderThanMs) },
      NOT: { errorMessage: { startsWith: RECONCILED_MARK } },
    },
    orderBy: { createdAt: "asc" },
    take: limit,
    select: { id: true },
  });
  return candidates.map(({ id }) => id);
}

/**
 * Looks one timed-out attempt up at its acquirer and voids a late approval. Undefined when there
 * is nothing to do now (already reconciled, or its processor is not configured: tried again later).
 */
export async function reconcileTimedOutAuthorization({ operationId }: { operationId: string }): Promise<ReconciledAttempt | undefined> {
  const attempt = await db().operation.findUnique({
    where: { id: operationId },
    select: { id: true, processor: true, acquirerAccountId: true, amount: true, currency: true, errorMessage: true },
  });
  // Marked by an earlier run (a retried step): nothing to do twice.
  if (!attempt?.processor || attempt.errorMessage?.startsWith(RECONCILED_MARK)) return undefined;
  const processor = attempt.processor;
  const mark = async (outcome: ReconcileOutcome, text: string, processorReference?: string): Promise<ReconciledAttempt> => {
    await db().operation.update({
      where: { id: attempt.id },
      data: {
        errorMessage: `${RECONCILED_MARK} ${text} (was: ${attempt.errorMessage ?? "time-out"})`,
        ...(processorReference ? { processorReference } : {}),
      },
    });
    return { operationId: attempt.id, processor, outcome };
  };
  // Looked up and voided under the account the attempt went out under: its transactions are its own.
  if (!attempt.acquirerAccountId)
    return mark("unsupported", `no acquirer account is recorded for this attempt at ${processor}; check its reports`);
  let connector;
  try {
    connector = await getAccountConnector({ accountId: attempt.acquirerAccountId });
  } catch (error) {
    if (error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError) return undefined; // try again when it is configured
    throw error;
  }
  const outcome = await lookupOperationOutcome({ processor, kind: "authorize", operationId: attempt.id });
  if (outcome.kind === "no_lookup") return mark("unsupported", `${processor} offers no look-up by reference; check its reports`);
  // Left unmarked: the next run tries again.
  if (outcome.kind === "unknown") return { operationId: attempt.id, processor, outcome: "lookup_failed" };
  if (outcome.kind === "not_found") {
    return mark(
      "not_found",
      outcome.proof
        ? `${processor} has no such authorization`
        : `${processor} did not find it (which proves nothing there; check its reports)`,
    );
  }
  const found = outcome.result;
  if (found.status !== "approved" || !found.processorReference) {
    return mark("declined", `${processor} declined it (${found.responsecode})`, found.processorReference);
  }
  const voided = await connector.void({
    operationId: `${attempt.id.slice(0, 28)}void`,
    authorizationReference: found.processorReference,
    authorizationCode: found.authorizationcode,
    authorizationOperationId: attempt.id,
    amount: attempt.amount,
    currency: attempt.currency,
  });
  if (voided.status === "approved") return mark("voided", `${processor} approved it late; voided`, found.processorReference);
  return mark(
    "void_failed",
    `${processor} approved it late; the void failed (${voided.responsecode}), release it by hand`,
    found.processorReference,
  );
}

/**
 * Voids an authorization the acquirer approved that its payment can no longer use (its window
 * closed, its MIT was already answered otherwise): recorded on the attempt (status kept, the outcome
 * in its errorMessage, so approvedAttemptOf no longer counts it). Undefined when already done or
 * its processor is not configured (tried again later).
 */
export async function voidLateApproval({ operationId, why }: { operationId: string; why: string }): Promise<ReconciledAttempt | undefined> {
  const attempt = await db().operation.findUnique({
    where: { id: operationId },
    select: {
      id: true,
      processor: true,
      amount: true,
      currency: true,
      errorMessage: true,
      processorReference: true,
      authorizationCode: true,
      acquirerAccountId: true,
    },
  });
  if (!attempt?.processor || !attempt.processorReference || attempt.errorMessage?.startsWith(RECONCILED_MARK)) return undefined;
  if (!attempt.acquirerAccountId) return undefined;
  let connector;
  try {
    // Voided under the account the authorization went out under: its transactions are its own.
    connector = await getAccountConnector({ accountId: attempt.acquirerAccountId });
  } catch (error) {
    if (error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError) return undefined;
    throw error;
  }
  const voided = await connector.void({
    operationId: `${attempt.id.slice(0, 28)}void`,
    authorizationReference: attempt.processorReference,
    authorizationCode: attempt.authorizationCode ?? undefined,
    // The attempt's own id is what the authorization was sent with (Finaro names it as g4).
    authorizationOperationId: attempt.id,
    amount: attempt.amount,
    currency: attempt.currency,
  });
  const outcome: ReconcileOutcome = voided.status === "approved" ? "voided" : "void_failed";
  const text =
    outcome === "voided"
      ? `${attempt.processor} approved it too late (${why}); voided`
      : `${attempt.processor} approved it too late (${why}); the void failed (${voided.responsecode}), release it by hand`;
  await db().operation.update({ where: { id: attempt.id }, data: { errorMessage: `${RECONCILED_MARK} ${text}` } });
  if (outcome === "void_failed") {
    log("processors").error(
      { event: "operator.needed", operationId: attempt.id, processor: attempt.processor },
      `operator needed: authorization ${attempt.id} at ${attempt.processor}: ${text}`,
    );
  }
  return { operationId: attempt.id, processor: attempt.processor, outcome };
}

/** Every due attempt in turn (the cron job lib/jobs/reconcile-timed-out-authorizations.ts runs a step per attempt instead). */
export async function reconcileTimedOutAuthorizations(options: ReconcileTimedOutAuthorizationsOptions = {}): Promise<ReconciledAttempt[]> {
  const results: ReconciledAttempt[] = [];
  for (const operationId of await findTimedOutAuthorizations(options)) {
    const result = await reconcileTimedOutAuthorization({ operationId });
    if (result) results.push(result);
  }
  return results;
}
