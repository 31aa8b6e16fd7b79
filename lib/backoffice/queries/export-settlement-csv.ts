// CSV export of one settlement's lines with their reconciliation (docs/decisions/0201): one row per
// transaction the acquirer counted, the acquirer's amounts and settled figures as integers of minor
// units, the result (matched, amount-mismatch, unknown), how the line was matched and our operation
// and payment. Cells are quoted and defused against spreadsheet formulas by csvCell (text starting
// with = + - @, a tab or a carriage return gets a leading '), since the acquirer's ids and references
// are text we did not write. Numbers stay numbers: a negative amount is not text and is never prefixed.
import type { Mode } from "../../mode";
import { csvCell } from "./export-payments-csv";
import { getSettlementDetail } from "./get-settlement-detail";

export const SETTLEMENT_CSV_COLUMNS = [
  "settlementid",
  "acquirersettlementid",
  "transactionid",
  "type",
  "processedat",
  "amount",
  "currency",
  "settledgross",
  "settledfees",
  "settlednet",
  "settledcurrency",
  "result",
  "matchedby",
  "operationid",
  "paymentid",
  "merchantpaymentid",
  "reference",
] as const;

export async function exportSettlementCsv({
  merchantId,
  mode,
  settlementId,
}: {
  merchantId: string;
  mode: Mode;
  settlementId: string;
}): Promise<{ fileName: string; csv: string }> {
  const settlement = await getSettlementDetail({ merchantId, mode, settlementId });
  const rows = settlement.lines.map((line) =>
    [
      settlement.id,
      settlement.acquirerSettlementId,
      line.transactionId,
      line.type,
      line.processedAt.toISOString(),
      line.amount,
      line.currency,
      line.settledGross,
      line.settledFees,
      line.settledNet,
      line.settledCurrency,
      line.result,
      line.matchedBy,
      line.operationId,
      line.paymentId,
      line.merchantPaymentId,
      line.reference,
    ]
      .map(csvCell)
      .join(","),
  );
  // The mode and the period in the name: a test export is never mistaken for live figures.
  const fileName = `settlement-${mode}-${settlement.periodStart}-${settlement.periodEnd}-${settlement.id}.csv`;
  return { fileName, csv: [SETTLEMENT_CSV_COLUMNS.join(","), ...rows].map((row) => `${row}\r\n`).join("") };
}
