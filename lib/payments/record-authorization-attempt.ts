// Writes an acquirer's answer on a pending authorization attempt (an answer found by a look-up, or
// given by an operator). The payment's consequence (authorized, notified, voided, routed no further)
// is its owner's: lib/payments/finish-mit-authorization.ts for an MIT, the session finisher for a
// cardholder payment. Returns false when the attempt was no longer pending (a contradicting answer
// then alerts an operator).
import { db, type Tx } from "../db";
import type { ProcessorResult } from "../acquirers/contract";
import { noteLateAnswer } from "./alert-operator";
import { operationResultFields } from "./operation-result-fields";

export async function recordAuthorizationAttempt({
  operationId,
  result,
  source = "the acquirer",
  now = new Date(),
  tx,
}: {
  operationId: string;
  result: ProcessorResult;
  source?: string;
  now?: Date;
  tx?: Tx;
}): Promise<boolean> {
  const updated = await (tx ?? db()).operation.updateMany({
    where: { id: operationId, type: "authorize", status: "pending" },
    data: {
      ...operationResultFields(result, now),
      ...(result.eci ? { eci: result.eci } : {}),
      ...(result.scheme?.schemeTransactionId ? { schemeTransactionId: result.scheme.schemeTransactionId } : {}),
      // Attempts name the failure class: "indeterminate" tells the late-approval reconciliation to look again.
      errorMessage: result.status === "approved" ? null : [result.failure, result.message].filter(Boolean).join(": ") || null,
    },
  });
  if (updated.count === 0) {
    await noteLateAnswer({ operationId, answer: result, source, now, tx });
    return false;
  }
  return true;
}
