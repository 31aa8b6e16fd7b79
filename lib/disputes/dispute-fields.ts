// The columns of a dispute that the merchant sees (its `dispute` notification body, the back office's
// and the merchant API's lists): one select and one reading of it, so that a new column reaches
// every view of it.
import type { Prisma } from "../db";
import type { DisputeFacts } from "../notifications/bodies";
import { calendarDay } from "./dispute-dates";

export const DISPUTE_FIELDS = {
  id: true,
  paymentId: true,
  operationId: true,
  transactionId: true,
  kind: true,
  status: true,
  reasonCode: true,
  reason: true,
  amount: true,
  currency: true,
  partial: true,
  openedOn: true,
  dueOn: true,
  expiresOn: true,
  answers: true,
} as const;

type DisputeFieldsRow = Prisma.DisputeGetPayload<{ select: typeof DISPUTE_FIELDS }>;

/** A stored dispute as the merchant sees it: kinds and states in their wire spelling, dates as calendar days. */
export function disputeFacts(row: Omit<DisputeFieldsRow, "transactionId">, processor: string, merchantPaymentId: string | null): DisputeFacts {
  return {
    disputeId: row.id,
    paymentId: row.paymentId,
    merchantPaymentId,
    operationId: row.operationId,
    processor,
    kind: row.kind.replaceAll("_", "-") as DisputeFacts["kind"],
    status: row.status.replaceAll("_", "-") as DisputeFacts["status"],
    reasonCode: row.reasonCode,
    reason: row.reason,
    amount: row.amount,
    currency: row.currency,
    partial: row.partial,
    openedOn: calendarDay(row.openedOn),
    dueOn: row.dueOn ? calendarDay(row.dueOn) : null,
    expiresOn: row.expiresOn ? calendarDay(row.expiresOn) : null,
    answers: row.answers as DisputeFacts["answers"],
  };
}
