// A merchant's disputes for the back office's Disputes page, a payment's page and the merchant
// API's list: only the merchant's own, of one mode, those still to answer first (earliest due date
// first), then the rest newest first. Read-only; amounts in minor units, dates as calendar days.
import { db } from "../db";
import type { DisputeKind, DisputeStatus } from "../generated/prisma/enums";
import type { Mode } from "../mode";
import type { DisputeFacts } from "../notifications/bodies";
import { DISPUTE_FIELDS, disputeFacts } from "./dispute-fields";

/** A dispute as the merchant sees it (`disputeId` is our id), with what the lists show beside it. */
export interface DisputeListItem extends DisputeFacts {
  acquirerAccountId: string;
  acquirerDisputeId: string;
  /** The acquirer's transaction id the dispute names. Null: none given. */
  transactionId: string | null;
  decision: string | null;
  evidenceFiles: number;
  updatedAt: Date;
}

const OPEN: DisputeStatus[] = ["open"];

export async function listDisputes({
  merchantId,
  mode,
  status,
  kind,
  paymentId,
  acquirerAccountId,
  disputeId,
  limit = 100,
}: {
  merchantId: string;
  mode: Mode;
  status?: DisputeStatus[];
  kind?: DisputeKind[];
  paymentId?: string;
  acquirerAccountId?: string;
  /** Only this dispute (the merchant API's read of one). */
  disputeId?: string;
  limit?: number;
}): Promise<DisputeListItem[]> {
  const where = {
    merchantId,
    mode,
    ...(status ? { status: { in: status } } : {}),
    ...(kind ? { kind: { in: kind } } : {}),
    ...(paymentId ? { paymentId } : {}),
    ...(acquirerAccountId ? { acquirerAccountId } : {}),
    ...(disputeId ? { id: disputeId } : {}),
  };
  const select = {
    ...DISPUTE_FIELDS,
    processor: true,
    acquirerAccountId: true,
    acquirerDisputeId: true,
    decision: true,
    updatedAt: true,
    payment: { select: { merchantPaymentId: true } },
    _count: { select: { evidence: true } },
  } as const;
  // Two reads so each keeps its own order: the open ones by due date (none last), the others newest first.
  const open = await db().dispute.findMany({ where: { ...where, AND: [{ status: { in: OPEN } }] }, select, orderBy: [{ dueOn: { sort: "asc", nulls: "last" } }, { openedOn: "asc" }], take: limit });
  const rest = open.length < limit ? await db().dispute.findMany({ where: { ...where, AND: [{ status: { notIn: OPEN } }] }, select, orderBy: [{ updatedAt: "desc" }], take: limit - open.length }) : [];
  return [...open, ...rest].map(({ _count, payment, processor, acquirerAccountId, acquirerDisputeId, decision, updatedAt, ...row }) => ({
    ...disputeFacts(row, processor, payment?.merchantPaymentId ?? null),
    acquirerAccountId,
    acquirerDisputeId,
    transactionId: row.transactionId,
    decision,
    evidenceFiles: _count.evidence,
    updatedAt,
  }));
}
