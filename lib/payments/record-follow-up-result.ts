// Writes a processor's answer to a pending capture, refund or void, brings the payment's amounts
// and status in line with its approved operations, and stores the merchant's notification of the
// result (the outbox row), in one transaction. Recomputing from the operations (rather than adding
// to counters) makes a repeated call harmless.
import { db, type Tx } from "../db";
import type { PaymentStatus } from "../generated/prisma/enums";
import type { ProcessorResult } from "../processors/types";
import { notifyOperationResult } from "./notify-operation-result";
import { operationResultFields } from "./operation-result-fields";

export interface RecordFollowUpResultOptions {
  operationId: string;
  result: Pick<ProcessorResult, "status" | "responsecode" | "authorizationcode" | "processorReference" | "message">;
  processor: string | null;
  now?: Date;
}

export async function syncPaymentAmounts(tx: Tx, paymentId: string): Promise<void> {
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId }, select: { status: true } });
  const approved = await tx.operation.groupBy({
    by: ["type"],
    where: { paymentId, status: "approved", type: { in: ["capture", "refund", "void"] } },
    _sum: { amount: true },
    _count: { _all: true },
  });
  const total = (type: string) => approved.find((row) => row.type === type)?._sum.amount ?? 0n;
  const captured = total("capture");
  const refunded = total("refund");
  const voided = approved.some((row) => row.type === "void");
  let status: PaymentStatus = payment.status;
  if (voided) status = "VOIDED";
  else if (refunded > 0n) status = "REFUNDED";
  else if (captured > 0n) status = "CAPTURED";
  await tx.payment.update({
    where: { id: paymentId },
    data: { capturedAmount: captured, refundedAmount: refunded, balance: captured - refunded, status },
  });
}

/** Returns false when the operation was no longer pending (already recorded). */
export async function recordFollowUpResult({
  operationId,
  result,
  processor,
  now = new Date(),
}: RecordFollowUpResultOptions): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const operation = await tx.operation.findUniqueOrThrow({
      where: { id: operationId },
      select: { paymentId: true, notificationUrl: true },
    });
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "id" = ${operation.paymentId} FOR UPDATE`;
    const updated = await tx.operation.updateMany({
      where: { id: operationId, status: "pending" },
      data: {
        ...operationResultFields(result, now),
        processor: (processor as "finaro" | "clearhaus" | "bambora" | null) ?? undefined,
      },
    });
    if (updated.count === 0) return false;
    await syncPaymentAmounts(tx, operation.paymentId);
    // A merchant request's operation (it has an address) is notified; an instant capture is
    // reported by the payment's completion notification instead.
    if (operation.notificationUrl) await notifyOperationResult({ operationId, tx });
    return true;
  });
}
