// The Disputes page's list: the merchant's disputes of the mode shown (listDisputes: those still to
// answer first, earliest due date first, then the rest newest first), filtered by status, kind and
// account, each with its account's name and its payment's order number for the links.
import { listDisputes, type DisputeListItem } from "../../disputes/list-disputes";
import { db } from "../../db";
import type { DisputeKind, DisputeStatus } from "../../generated/prisma/enums";
import type { Mode } from "../../mode";
import type { DisputeFilters } from "../dispute-filters";

export const DISPUTE_PAGE_SIZE = 200;

export interface DisputeRow extends DisputeListItem {
  accountName: string | null;
  merchantPaymentId: string | null;
}

export async function listDisputeRows({ merchantId, mode, filters }: { merchantId: string; mode: Mode; filters: DisputeFilters }): Promise<DisputeRow[]> {
  const disputes = await listDisputes({
    merchantId,
    mode,
    status: filters.status ? [filters.status.replaceAll("-", "_") as DisputeStatus] : undefined,
    kind: filters.kind ? [filters.kind.replaceAll("-", "_") as DisputeKind] : undefined,
    acquirerAccountId: filters.account,
    limit: DISPUTE_PAGE_SIZE,
  });
  const accountIds = [...new Set(disputes.map((dispute) => dispute.acquirerAccountId))];
  const paymentIds = [...new Set(disputes.flatMap((dispute) => (dispute.paymentId ? [dispute.paymentId] : [])))];
  const [accounts, payments] = await Promise.all([
    db().acquirerAccount.findMany({ where: { id: { in: accountIds }, merchantId }, select: { id: true, name: true } }),
    db().payment.findMany({ where: { id: { in: paymentIds }, merchantId }, select: { id: true, merchantPaymentId: true } }),
  ]);
  const accountName = new Map(accounts.map((account) => [account.id, account.name]));
  const orderNumber = new Map(payments.map((payment) => [payment.id, payment.merchantPaymentId]));
  return disputes.map((dispute) => ({
    ...dispute,
    accountName: accountName.get(dispute.acquirerAccountId) ?? null,
    merchantPaymentId: dispute.paymentId ? (orderNumber.get(dispute.paymentId) ?? null) : null,
  }));
}
