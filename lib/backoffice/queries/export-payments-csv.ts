// CSV export of the filtered payments list, streamed in keyset batches so memory stays flat
// however many rows match. Amounts are integers of minor units, as in the API. The status is the
// state the list shows (lib/payments/derive-display-state.ts: partially_refunded, not the stored
// REFUNDED), in the list filter's spelling, so an accountant books what really happened.
import type { Mode } from "../../mode";
import { db } from "../../db";
import type { PaymentFilters } from "../payment-filters";
import { deriveDisplayState } from "../../payments/derive-display-state";
import { keysetWhere, paymentListSelect, paymentWhere, withAuthorizationAttempted, type PaymentListRow } from "./list-payments";

const BATCH = 1000;

export const CSV_COLUMNS = [
  "paymentid",
  "merchantpaymentid",
  "created",
  "status",
  "amount",
  "currency",
  "captured",
  "refunded",
  "processor",
  "scheme",
  "last4",
  "reference",
  "paymenttype",
  // Last, so that columns of existing spreadsheets keep their places: the payment whose card an
  // MIT or a payout used (newcomer review 4, N20).
  "parentpaymentid",
] as const;

/** Quotes a cell, and defuses text a spreadsheet would run as a formula (CSV injection). */
export function csvCell(value: string | number | bigint | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function row(payment: PaymentListRow & { authorizationAttempted: boolean }): string {
  return [
    payment.id,
    payment.merchantPaymentId,
    payment.createdAt.toISOString(),
    deriveDisplayState(payment),
    payment.amount,
    payment.currency,
    payment.capturedAmount,
    payment.refundedAmount,
    payment.processor,
    payment.storedCard?.scheme,
    payment.storedCard?.last4,
    payment.reference,
    payment.paymentType,
    payment.parentPaymentId,
  ]
    .map(csvCell)
    .join(",");
}

/** The payments of one merchant and mode (the mode the back office shows), as CSV. */
export async function* exportPaymentsCsv({
  merchantId,
  mode,
  filters,
}: {
  merchantId: string;
  mode: Mode;
  filters: PaymentFilters;
}): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(",")}\r\n`;
  const where = await paymentWhere(merchantId, mode, filters);
  let cursor: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const batch = await db().payment.findMany({
      where: cursor ? { AND: [where, keysetWhere(cursor, "older")] } : where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: BATCH,
      select: paymentListSelect,
    });
    if (batch.length === 0) return;
    yield (await withAuthorizationAttempted(batch)).map((payment) => `${row(payment)}\r\n`).join("");
    if (batch.length < BATCH) return;
    const last = batch[batch.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}
