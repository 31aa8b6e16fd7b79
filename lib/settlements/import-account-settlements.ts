// Imports one account's settlements from its acquirer's reporting API: every settlement whose
// period ends on or after the cursor's day, and every one not yet settled. A settlement already
// stored as settled is not read again (its figures and lines no longer change: reading it twice
// changes nothing). Any other is stored with its lines in one transaction (lines the acquirer no
// longer lists on an open settlement are dropped with it), then reconciled (./reconcile-settlement.ts).
// Called by the poller (./poll-account-settlements.ts) with the cursor it keeps.
import type { AcquirerSettlement } from "../acquirers/contract";
import { db, Prisma } from "../db";
import { dateColumn } from "../disputes/dispute-dates";
import { newId } from "../ids";
import type { AccountReporting } from "../routing/accounts/reporting-access";
import { acquirerSettlementLineSchema, acquirerSettlementSchema } from "./acquirer-settlement-schema";
import { reconcileSettlement, type SettlementReconciliation } from "./reconcile-settlement";

export interface ImportedSettlements {
  /** Stored (new or still open) and reconciled, by the acquirer's settlement id. */
  reconciled: Record<string, SettlementReconciliation>;
  /** Already stored as settled: not read again. */
  unchanged: number;
  /** Where the next import starts: the latest period end of a settled settlement seen, never earlier than this one. */
  nextPeriodEndOnOrAfter: string;
}

const strings = (record: Readonly<Record<string, bigint>>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, value.toString()]));

function settlementColumns(settlement: AcquirerSettlement) {
  return {
    settled: settlement.settled,
    currency: settlement.currency,
    periodStart: dateColumn(settlement.periodStart),
    periodEnd: dateColumn(settlement.periodEnd),
    payoutAmount: settlement.payout?.amount ?? null,
    payoutDate: settlement.payout ? dateColumn(settlement.payout.date) : null,
    payoutReference: settlement.payout?.reference ?? null,
    payoutCancelledOn: settlement.payout?.cancelledOn ? dateColumn(settlement.payout.cancelledOn) : null,
    reserveAmount: settlement.reserve?.amount ?? null,
    reserveDate: settlement.reserve?.date ? dateColumn(settlement.reserve.date) : null,
    reserveReference: settlement.reserve?.reference ?? null,
    ...settlement.summary,
    feesByKind: strings(settlement.fees),
    otherPostingList: settlement.otherPostings.map((posting) => ({ ...posting, amount: posting.amount.toString() })) as Prisma.InputJsonArray,
  };
}

export async function importAccountSettlements({
  reporting,
  periodEndOnOrAfter,
  now = new Date(),
}: {
  reporting: AccountReporting;
  periodEndOnOrAfter: string;
  now?: Date;
}): Promise<ImportedSettlements> {
  const { client, call, account } = reporting;
  const listed = (await client.settlements({ periodEndOnOrAfter }, call)).map((settlement) => acquirerSettlementSchema.parse(settlement));
  const result: ImportedSettlements = { reconciled: {}, unchanged: 0, nextPeriodEndOnOrAfter: periodEndOnOrAfter };
  for (const settlement of listed) {
    if (settlement.settled && settlement.periodEnd > result.nextPeriodEndOnOrAfter) result.nextPeriodEndOnOrAfter = settlement.periodEnd;
    const key = { acquirerAccountId_acquirerSettlementId: { acquirerAccountId: account.id, acquirerSettlementId: settlement.settlementId } };
    const stored = await db().settlement.findUnique({ where: key, select: { id: true, settled: true } });
    if (stored?.settled) {
      result.unchanged += 1;
      continue;
    }
    const lines = (await client.settlementLines(settlement.settlementId, call)).map((line) => acquirerSettlementLineSchema.parse(line));
    const id = stored?.id ?? newId();
    await db().$transaction(async (tx) => {
      const columns = settlementColumns(settlement);
      await tx.settlement.upsert({
        where: key,
        create: { id, merchantId: account.merchantId, mode: account.mode, acquirerAccountId: account.id, processor: account.processor, acquirerSettlementId: settlement.settlementId, ...columns },
        update: columns,
        select: { id: true },
      });
      await tx.settlementLine.deleteMany({ where: { settlementId: id, transactionId: { notIn: lines.map((line) => line.transactionId) } } });
      for (const line of lines) {
        const columns = {
          type: line.type,
          reference: line.reference ?? null,
          amount: line.amount,
          currency: line.currency,
          processedAt: line.processedAt,
          settledGross: line.settled?.gross ?? null,
          settledFees: line.settled?.fees ?? null,
          settledNet: line.settled?.net ?? null,
          settledCurrency: line.settled?.currency ?? null,
        };
        await tx.settlementLine.upsert({
          where: { settlementId_transactionId: { settlementId: id, transactionId: line.transactionId } },
          // Unknown until reconciled, a moment later (in its own transaction: a failed reconciliation leaves the figures stored).
          create: { id: newId(), settlementId: id, transactionId: line.transactionId, result: "unknown", ...columns },
          update: columns,
          select: { id: true },
        });
      }
    });
    result.reconciled[settlement.settlementId] = await reconcileSettlement({ settlementId: id, lineReference: reporting.reporting.lineReference, now });
  }
  return result;
}
