// A merchant's disputes for the back office's Disputes page, a payment's page and the merchant
// API's list: only the merchant's own, of one mode, those still to answer first (earliest due date
// first), then the rest newest first. Read-only; amounts in minor units, dates as calendar days.
import { db } from "../db";
import type { DisputeKind, DisputeStatus } from "../generated/prisma/enums";
import type { Mode } from "../mode";
import { calendarDay } from "./dispute-dates";
import { DISPUTE_FIELDS } from "./dispute-fields";

export interface DisputeListItem {
  id: string;
  processor: string;
  acquirerAccountId: string;
  acquirerDisputeId: string;
  /** Null: the acquirer's transaction matches none of our operations (shown as unknown). */
  paymentId: string | null;
  /** The payment's merchantpaymentid, when it has one. */
  merchantPaymentId: string | null;
  operationId: string | null;
  transactionId: string | null;
  kind: string;
  status: string;
  reasonCode: string;
  reason: string;
  amount: bigint;
  currency: string;
  partial: boolean;
  openedOn: string;
  dueOn: string | null;
  expiresOn: string | null;
  answers: string[];
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
  return [...open, ...rest].map(({ _count, payment, openedOn, dueOn, expiresOn, kind, status, ...row }) => ({
    ...row,
    merchantPaymentId: payment?.merchantPaymentId ?? null,
    kind: kind.replaceAll("_", "-"),
    status: status.replaceAll("_", "-"),
    openedOn: calendarDay(openedOn),
    dueOn: dueOn ? calendarDay(dueOn) : null,
    expiresOn: expiresOn ? calendarDay(expiresOn) : null,
    evidenceFiles: _count.evidence,
  }));
}
