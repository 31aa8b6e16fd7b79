// Before a payment is routed again (a retried MIT step, the cardholder's next goPay() after a
// crash), every authorization attempt still pending is resolved with its acquirer under its
// ORIGINAL reference: a pending row means the call was sent and its answer never recorded, so the
// card may already be held. Routing again under new references would hold it a second time.
import { db } from "../db";
import { lookupOperationOutcome } from "../processors/lookup-operation-outcome";
import { RESPONSE_CODES, type ProcessorName, type ProcessorResult } from "../processors/types";
import { operationResultFields } from "./operation-result-fields";

export class AuthorizationOutcomeUnknownError extends Error {
  constructor(operationId: string, processor: ProcessorName, detail: string) {
    super(`the authorization attempt ${operationId} at ${processor} is still unknown (${detail}); the payment is not routed again`);
    this.name = "AuthorizationOutcomeUnknownError";
  }
}

export interface ResolvedAuthorization {
  operationId: string;
  processor: ProcessorName;
  result: ProcessorResult;
}

/**
 * Settles the payment's pending authorization attempts. Returns the one the acquirer approved, if
 * any; throws AuthorizationOutcomeUnknownError when a look-up gets no answer (try again later).
 */
export async function resolvePendingAuthorizations({
  paymentId,
  timeoutMs,
}: {
  paymentId: string;
  timeoutMs?: number;
}): Promise<ResolvedAuthorization | undefined> {
  const pending = await db().operation.findMany({
    where: { paymentId, type: "authorize", status: "pending", processor: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { id: true, processor: true, eci: true },
  });
  let approved: ResolvedAuthorization | undefined;
  for (const attempt of pending) {
    const processor = attempt.processor!;
    const outcome = await lookupOperationOutcome({ processor, kind: "authorize", operationId: attempt.id, timeoutMs });
    if (outcome.kind === "unknown" || outcome.kind === "no_lookup")
      throw new AuthorizationOutcomeUnknownError(attempt.id, processor, outcome.message);
    if (outcome.kind === "not_found" && !outcome.proof) {
      throw new AuthorizationOutcomeUnknownError(attempt.id, processor, `not found, which proves nothing at ${processor}`);
    }
    const result: ProcessorResult =
      outcome.kind === "found"
        ? outcome.result
        : {
            // A hold is voidable: a trusted "not found" lets the routing go on at once, and the
            // late-approval reconciliation (which reads this "indeterminate" mark) voids the attempt
            // if the acquirer approves it after all.
            status: "failed",
            failure: "indeterminate",
            responsecode: RESPONSE_CODES.unavailable,
            message: `${processor} had not received it when looked up before routing again`,
          };
    await db().operation.updateMany({
      where: { id: attempt.id, status: "pending" },
      data: {
        ...operationResultFields(result),
        eci: result.eci ?? attempt.eci,
        errorMessage: result.status === "approved" ? null : [result.failure, result.message].filter(Boolean).join(": ") || null,
      },
    });
    if (result.status === "approved" && !approved) approved = { operationId: attempt.id, processor, result };
  }
  return approved;
}
