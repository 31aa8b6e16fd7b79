// instantcapture 1 and 2 of initdynamic: capture the full amount right after the approval, inside
// the goPay() request, so the cardholder's result already says whether the money was taken.
// 1: when the capture fails, void the authorization (the payment then fails);
// 2: when the capture fails, keep the authorization (the merchant can capture later).
import { db } from "../db";
import type { FollowUpOperation, ProcessorName } from "../processors/types";
import { runFollowUp } from "../processors/follow-up";
import { newId } from "../ids";
import { recordFollowUpResult } from "./record-follow-up-result";

export interface CaptureInstantlyOptions {
  paymentId: string;
  voidOnFailure: boolean;
}

export interface CaptureInstantlyResult {
  captured: boolean;
  voided: boolean;
}

async function followUp(
  payment: { id: string; currency: string; processor: ProcessorName; authorizedAmount: bigint; textOnStatement: string | null },
  type: FollowUpOperation,
) {
  const operationId = newId();
  await db().operation.create({
    data: {
      id: operationId,
      paymentId: payment.id,
      type,
      amount: payment.authorizedAmount,
      currency: payment.currency,
      processor: payment.processor,
      note: "instantcapture",
    },
  });
  const result = await runFollowUp({
    payment: { id: payment.id, currency: payment.currency, processor: payment.processor },
    operation: type,
    amount: payment.authorizedAmount,
    operationId,
    textOnStatement: payment.textOnStatement ?? undefined,
  });
  await recordFollowUpResult({ operationId, result, processor: payment.processor });
  return result.status === "approved";
}

export async function captureInstantly({ paymentId, voidOnFailure }: CaptureInstantlyOptions): Promise<CaptureInstantlyResult> {
  const payment = await db().payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: { id: true, status: true, currency: true, processor: true, authorizedAmount: true, textOnStatement: true },
  });
  // A repeated authorize request (the window stays open after a failure) for a payment whose
  // authorization was already voided here: nothing to capture, and still nothing paid.
  if (payment.status === "VOIDED") return { captured: false, voided: true };
  if (!payment.processor || payment.authorizedAmount <= 0n) return { captured: false, voided: false };
  const withProcessor = { ...payment, processor: payment.processor };
  if (await followUp(withProcessor, "capture")) return { captured: true, voided: false };
  if (!voidOnFailure) return { captured: false, voided: false };
  return { captured: false, voided: await followUp(withProcessor, "void") };
}
