// The operator alerts of money whose outcome is unclear (docs/operations.md, "Unknown
// outcomes"): an operation that no look-up can settle, a definitive answer that contradicts how an
// operation was already settled, and a settlement the acquirer's look-up never confirmed. Each is an error line for the log pipeline, a state in the
// back office (Operation.operatorAlertedAt / lateAnswerAt) and a count in the
// cps_operations_awaiting_operator gauge. Raised once per operation and fact.
import { db, type Tx } from "../db";
import { log } from "../observability/logger";
import type { ProcessorResult } from "../acquirers/contract";

/** The operation an alert is about, the time it is raised, and the transaction it is written in (none: its own writes). */
interface AlertOptions {
  operationId: string;
  now?: Date;
  tx?: Tx;
}

/** An acquirer's answer, as far as an alert tells it. */
type Answer = Pick<ProcessorResult, "status" | "responsecode" | "processorReference" | "message">;

/** Leaves a pending operation for an operator (once): its reservation stays until it is settled. */
export async function alertOperator({ operationId, reason, now = new Date(), tx }: AlertOptions & { reason: string }): Promise<boolean> {
  const client = tx ?? db();
  const marked = await client.operation.updateMany({
    where: { id: operationId, status: "pending", operatorAlertedAt: null },
    data: { operatorAlertedAt: now },
  });
  if (marked.count === 0) return false;
  const operation = await client.operation.findUniqueOrThrow({
    where: { id: operationId },
    select: { type: true, paymentId: true, processor: true, payment: { select: { processor: true } } },
  });
  // A follow-up has no processor of its own until its answer is recorded: until then the money is
  // at the processor that authorized the payment.
  const processor = operation.processor ?? operation.payment.processor;
  log("reconcile").error(
    { event: "operator.needed", operationId, paymentId: operation.paymentId, processor },
    `operator needed: ${operation.type} ${operationId} of payment ${operation.paymentId} at ${processor ?? "no processor"}: ` +
      `${reason}; its amount stays reserved until it is settled (npm run cli -- operations settle, or the payment's back-office page)`,
  );
  return true;
}

function describe(result: Answer): string {
  return [
    result.status,
    `responsecode ${result.responsecode}`,
    result.processorReference && `reference ${result.processorReference}`,
    result.message,
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * A definitive answer that arrived for an operation already settled otherwise (a trusted "not
 * found" the acquirer later contradicted, an operator's settlement, a race between two settlers):
 * never dropped silently. Both facts are kept on the operation and logged; an operator reconciles
 * them with the acquirer (docs/operations.md). An answer that agrees is not an alert.
 */
export async function noteLateAnswer({
  operationId,
  answer,
  source,
  now = new Date(),
  tx,
}: AlertOptions & { answer: Answer; source: string }): Promise<boolean> {
  const client = tx ?? db();
  const operation = await client.operation.findUniqueOrThrow({
    where: { id: operationId },
    select: {
      type: true,
      status: true,
      responseCode: true,
      processorReference: true,
      paymentId: true,
      processor: true,
      lateAnswerAt: true,
    },
  });
  if (operation.status === "pending") return false;
  // Declined and failed both mean "not performed": only approved against not-approved contradicts.
  const settledApproved = operation.status === "approved";
  if (settledApproved === (answer.status === "approved")) return false;
  const text =
    `settled ${operation.status} (responsecode ${operation.responseCode ?? ""}${operation.processorReference ? `, reference ${operation.processorReference}` : ""}); ` +
    `then ${source} answered ${describe(answer)}`;
  await client.operation.update({ where: { id: operationId }, data: { lateAnswer: text, lateAnswerAt: now } });
  log("reconcile").error(
    { event: "operator.late_answer", operationId, paymentId: operation.paymentId, processor: operation.processor },
    `operator needed: ${operation.type} ${operationId} of payment ${operation.paymentId}: ${text}; ` +
      `our books and the acquirer's disagree until an operator reconciles them (docs/operations.md)`,
  );
  return true;
}

/**
 * A settlement made without the acquirer's answer (a trusted "not found", an operator) whose
 * verification look-up never got an answer: an operator checks the acquirer's report and closes it
 * (`operations acknowledge`). Kept with the contradictions (lateAnswer), as our books are unconfirmed.
 */
export async function noteUnverified({ operationId, why, now = new Date() }: { operationId: string; why: string; now?: Date }): Promise<void> {
  const operation = await db().operation.findUniqueOrThrow({
    where: { id: operationId },
    select: { type: true, status: true, responseCode: true, paymentId: true, processor: true },
  });
  const text = `settled ${operation.status} (responsecode ${operation.responseCode ?? ""}); ${why}: check the acquirer's report`;
  await db().operation.update({ where: { id: operationId }, data: { lateAnswer: text, lateAnswerAt: now } });
  log("reconcile").error(
    { event: "operator.unverified", operationId, paymentId: operation.paymentId, processor: operation.processor },
    `operator needed: ${operation.type} ${operationId} of payment ${operation.paymentId}: ${text} (docs/operations.md)`,
  );
}
