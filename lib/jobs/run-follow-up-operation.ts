// Runs an accepted capture, refund or void: the processor call (to the processor that authorized
// the payment), the result on the operation and payment, then the notification of spec 6.4.
// One step: every part is idempotent (the processor is called only while the operation is pending,
// the notification id derives from the operation id, the event id from the notification id), so a
// retried step repeats nothing, and one step is one executor round trip less per operation.
import { NonRetriableError } from "inngest";
import { db } from "../db";
import { deliverNowOrSchedule } from "../notifications/enqueue-notification";
import { notifyOperationResult } from "../payments/notify-operation-result";
import { recordFollowUpResult } from "../payments/record-follow-up-result";
import { runFollowUp } from "../processors/follow-up";
import { RESPONSE_CODES } from "../processors/types";
import { inngest } from "../inngest/client";
import { followUpRequested } from "../inngest/events/merchant-api";

async function callProcessor(operationId: string): Promise<string | null> {
  const operation = await db().operation.findUnique({
    where: { id: operationId },
    select: {
      type: true,
      status: true,
      amount: true,
      payment: { select: { id: true, currency: true, processor: true, textOnStatement: true } },
    },
  });
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

export const runFollowUpOperation = inngest.createFunction(
  { id: "run-follow-up-operation", retries: 3, triggers: [followUpRequested] },
  async ({ event, step }) => {
    const { operationId, notificationUrl } = event.data;
    return step.run("process-and-notify", async () => {
      const status = await callProcessor(operationId);
      const notificationId = await notifyOperationResult({ operationId, notificationUrl });
      if (notificationId) await deliverNowOrSchedule(notificationId);
      return { operationId, status, notificationId };
    });
  },
);
