// Stores one dispute as the acquirer reports it, and notifies the merchant of what changed, once.
// Idempotent: a dispute read again unchanged writes nothing and sends nothing. A change the merchant
// can see (anything in the `dispute` notification's body) bumps the row's revision and stores the
// notification in the same transaction (the outbox), with an id made from the revision, so two
// imports racing on one change write one row and one notification between them: the second finds
// the revision moved (or the row created) and starts over from what the first stored.
import type { AcquirerDispute } from "../acquirers/contract";
import type { AcquirerName } from "../acquirers/names";
import { db, Prisma, type Tx } from "../db";
import type { DisputeKind, DisputeStatus } from "../generated/prisma/enums";
import { newId } from "../ids";
import type { Mode } from "../mode";
import { disputeFields, disputeNotificationBody, type DisputeFacts, type DisputeNotificationBody } from "../notifications/bodies";
import { dispatchNotification, enqueueNotification } from "../notifications/enqueue-notification";
import { resolveNotificationUrl } from "../notifications/resolve-notification-url";
import { acquirerDisputeSchema } from "./acquirer-dispute-schema";
import { dateColumn } from "./dispute-dates";
import { DISPUTE_FIELDS, disputeFacts } from "./dispute-fields";

export interface DisputeAccount {
  id: string;
  merchantId: string;
  mode: Mode;
  processor: AcquirerName;
}

export interface AppliedDispute {
  /** Our id of the dispute. */
  id: string;
  change: "created" | "updated" | "unchanged";
  /** The `dispute` notification stored for this change (none: nothing the merchant sees changed, or no address). */
  notificationId?: string;
}

const DISPUTE_SELECT = {
  ...DISPUTE_FIELDS,
  revision: true,
  reference: true,
  payment: { select: { merchantPaymentId: true, notificationUrl: true, session: { select: { hostedIntegrationId: true } } } },
} as const;

const kindColumn = (kind: AcquirerDispute["kind"]) => kind.replaceAll("-", "_") as DisputeKind;
const statusColumn = (status: AcquirerDispute["status"]) => status.replaceAll("-", "_") as DisputeStatus;

/** What the merchant sees of a stored dispute (its notification body but the event), as text to compare. */
const seenAs = (facts: DisputeFacts) => JSON.stringify(disputeFields(facts));

/** Our operation with the acquirer's transaction id on this account (the earliest, should two share it). */
async function matchOperation(tx: Tx, accountId: string, transactionId: string | undefined) {
  if (!transactionId) return null;
  return tx.operation.findFirst({
    where: { acquirerAccountId: accountId, processorReference: transactionId },
    orderBy: { createdAt: "asc" },
    select: { id: true, paymentId: true, payment: { select: { merchantPaymentId: true, notificationUrl: true, session: { select: { hostedIntegrationId: true } } } } },
  });
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

export async function applyAcquirerDispute({ account, dispute: input }: { account: DisputeAccount; dispute: AcquirerDispute }): Promise<AppliedDispute> {
  const dispute = acquirerDisputeSchema.parse(input);
  // Two tries: a race lost to another import (the row created, or its revision moved, meanwhile) is
  // decided again from what that import stored; a third would mean a bug, and throws.
  for (let attempt = 0; ; attempt++) {
    try {
      const applied = await db().$transaction((tx) => applyOnce(tx, account, dispute));
      if (applied === "lost-race") {
        if (attempt >= 2) throw new Error(`dispute ${dispute.disputeId} of account ${account.id}: still changing after 3 tries`);
        continue;
      }
      if (applied.notificationId) await dispatchNotification(applied.notificationId);
      return applied;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

async function applyOnce(tx: Tx, account: DisputeAccount, dispute: AcquirerDispute): Promise<AppliedDispute | "lost-race"> {
  const existing = await tx.dispute.findUnique({
    where: { acquirerAccountId_acquirerDisputeId: { acquirerAccountId: account.id, acquirerDisputeId: dispute.disputeId } },
    select: DISPUTE_SELECT,
  });
  // Matched once, kept: a later import never unlinks a payment. Unmatched ones are tried again (the
  // operation may be recorded after the dispute was first seen).
  const match = existing?.paymentId ? null : await matchOperation(tx, account.id, dispute.transactionId);
  const payment = existing?.paymentId ? existing.payment : (match?.payment ?? null);
  const fields = {
    transactionId: dispute.transactionId ?? null,
    reference: dispute.reference ?? null,
    paymentId: existing?.paymentId ?? match?.paymentId ?? null,
    operationId: existing?.paymentId ? existing.operationId : (match?.id ?? null),
    kind: kindColumn(dispute.kind),
    status: statusColumn(dispute.status),
    reasonCode: dispute.reasonCode,
    reason: dispute.reason,
    amount: dispute.amount,
    currency: dispute.currency,
    partial: dispute.partial,
    openedOn: dateColumn(dispute.openedOn),
    dueOn: dispute.dueOn ? dateColumn(dispute.dueOn) : null,
    expiresOn: dispute.expiresOn ? dateColumn(dispute.expiresOn) : null,
    answers: [...dispute.answers],
  };
  const id = existing?.id ?? newId();
  const merchantPaymentId = payment?.merchantPaymentId ?? null;
  const after = disputeFacts({ ...fields, id }, account.processor, merchantPaymentId);
  let event: DisputeNotificationBody["event"];
  let revision: number;
  if (!existing) {
    revision = 1;
    await tx.dispute.create({
      data: { id, merchantId: account.merchantId, mode: account.mode, acquirerAccountId: account.id, processor: account.processor, acquirerDisputeId: dispute.disputeId, revision, ...fields },
      select: { id: true },
    });
    event = dispute.status === "won" || dispute.status === "lost" ? dispute.status : "opened";
  } else {
    const before = disputeFacts(existing, account.processor, existing.payment?.merchantPaymentId ?? null);
    const seen = seenAs(before) !== seenAs(after);
    const quiet = fields.transactionId !== existing.transactionId || fields.reference !== existing.reference;
    if (!seen && !quiet) return { id, change: "unchanged" };
    revision = seen ? existing.revision + 1 : existing.revision;
    const updated = await tx.dispute.updateMany({ where: { id, revision: existing.revision }, data: { ...fields, revision } });
    if (updated.count === 0) return "lost-race";
    if (!seen) return { id, change: "updated" };
    const closedNow = (dispute.status === "won" || dispute.status === "lost") && existing.status !== dispute.status;
    event = closedNow ? (dispute.status as "won" | "lost") : "updated";
  }
  const url = await resolveNotificationUrl({
    merchantId: account.merchantId,
    mode: account.mode,
    hostedIntegrationId: payment?.session?.hostedIntegrationId,
    purpose: "default",
    fallbackUrl: payment?.notificationUrl,
    tx,
  });
  if (!url) return { id, change: existing ? "updated" : "created" };
  const notificationId = await enqueueNotification({
    id: `msg_dispute_${id}_${revision}`,
    merchantId: account.merchantId,
    mode: account.mode,
    paymentId: fields.paymentId,
    kind: "dispute",
    url,
    body: disputeNotificationBody({ ...after, event }),
    tx,
    ifAbsent: true,
  });
  return { id, change: existing ? "updated" : "created", notificationId };
}
