// "Ours but not settled": the account's approved captures and refunds that no settlement line names
// although the expected settlement delay has passed (docs/decisions/0198-expected-settlement-delay.md).
// Only from the first settlement period we imported for the account: before it we never read the
// acquirer's settlements, so nothing there can be called missing.
import { db, type Tx } from "../db";

/** Captures and refunds are on a settlement within this many days; older ones on none are exceptions. */
export const EXPECTED_SETTLEMENT_DELAY_DAYS = 7;
/** The list stored per settlement is cut here (the count says how many there are). */
export const OVERDUE_LIST_LIMIT = 500;

export async function listOverdueOperations({ accountId, now = new Date(), tx }: { accountId: string; now?: Date; tx?: Tx }): Promise<{ ids: string[]; count: number }> {
  const client = tx ?? db();
  const first = await client.settlement.findFirst({ where: { acquirerAccountId: accountId }, orderBy: { periodStart: "asc" }, select: { periodStart: true } });
  if (!first) return { ids: [], count: 0 };
  const where = {
    acquirerAccountId: accountId,
    type: { in: ["capture" as const, "refund" as const] },
    status: "approved" as const,
    completedAt: { gte: first.periodStart, lt: new Date(now.getTime() - EXPECTED_SETTLEMENT_DELAY_DAYS * 86_400_000) },
    settlementLines: { none: {} },
  };
  const [rows, count] = await Promise.all([
    client.operation.findMany({ where, select: { id: true }, orderBy: { completedAt: "asc" }, take: OVERDUE_LIST_LIMIT }),
    client.operation.count({ where }),
  ]);
  return { ids: rows.map((row) => row.id), count };
}
