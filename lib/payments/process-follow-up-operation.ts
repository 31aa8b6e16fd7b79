// Runs an accepted capture, refund or void at the processor that authorized the payment and
// records the answer on the operation and payment (lib/jobs/run-follow-up-operation.ts calls it).
// Idempotent: the processor is called only while the operation is pending.
import { NonRetriableError } from "inngest";
import { db } from "../db";
import { runFollowUp } from "../processors/follow-up";
import { RESPONSE_CODES } from "../processors/types";
import { recordFollowUpResult } from "./record-follow-up-result";

/** The operation's new status, or null when it was no longer pending (a retried step). */
export async function processFollowUpOperation({ operationId }: { operationId: string }): Promise<string | null> {
  const operation = await db().operation.findUnique({
    where: { id: operationId },
    select: {
      type: true,
      status: true,
      amount: true,
      payment: { select: { id: true, currency: true, processor: true, textOnStatement: true } },
    },
  });
  // A retry cannot fix these: the job fails at once instead of retrying.
  if (!operation) throw new NonRetriableError(`operation ${operationId} does not exist`);
  if (operation.status !== "pending") return null;
  if (operation.type !== "capture" && operation.type !== "refund" && operation.type !== "void") {
    throw new NonRetriableError(`operation ${operationId} is a ${operation.type}, not a follow-up`);
  }
  const processor = operation.payment.processor;
  const result = processor
    ? await runFollowUp({
        payment: { id: operation.payment.id, currency: operation.payment.currency, processor },
        operation: operation.type,
        amount: operation.amount,
        operationId,
        textOnStatement: operation.payment.textOnStatement ?? undefined,
      })
    : { status: "failed" as const, responsecode: RESPONSE_CODES.invalidTransaction, message: "the payment has no authorizing processor" };
  await recordFollowUpResult({ operationId, result, processor });
  return result.status;
}
