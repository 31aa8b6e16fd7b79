// The common part of capture, refund and void requests: in ONE transaction lock the payment, check
// the amount rules against approved and pending operations, and reserve the amount by inserting
// the pending operation. The processor call and the notification then run in the background
// (lib/jobs/run-follow-up-operation.ts), which releases the reservation on decline; in embedded
// mode the event that starts them is written in the same transaction.
import { db, Prisma, type Tx } from "../db";
import { invalidParameter } from "../errors";
import { newId } from "../ids";
import { followUpRequested } from "../inngest/events/merchant-api";
import { sendEventInTransaction } from "../inngest/send-event";
import type { OperationRequest } from "../validation/operation";
import { capabilitiesOf } from "../acquirers/capabilities";
import { FOLLOW_UP_KINDS, type FollowUpKind, type FollowUpType } from "./follow-ups/kinds";
import { lockFollowUpPaymentOrThrow } from "./lock-follow-up-payment";
import type { Mode } from "../mode";

export interface RequestFollowUpOptions {
  merchantId: string;
  /** The key's (or back-office view's) mode: only payments of this mode are found. */
  mode: Mode;
  paymentRef: string | undefined;
  responseId: string;
  input: OperationRequest;
  type: FollowUpType;
  /** Stores the answer under the request's Idempotency-Key in this transaction (lib/api/merchant-route.ts). */
  bindAnswer?: (tx: Tx, body: Record<string, unknown>) => Promise<void>;
  /** Why a refund was given, when the back office asked for it (not a merchant API field). */
  reason?: string;
}

/** What a capture or void request names: the request without its kind (set by the use case) or a refund's reason. */
export type FollowUpRequest = Omit<RequestFollowUpOptions, "type" | "reason">;

export async function requestFollowUp({
  merchantId,
  mode,
  paymentRef,
  responseId,
  input,
  type,
  bindAnswer,
  reason,
}: RequestFollowUpOptions): Promise<{ responseid: string }> {
  const afterCommit = await db().$transaction(async (tx: Tx) => {
    // One round trip for the lock, every candidate notification address and, read after the lock,
    // the operation totals (lock-follow-up-payment.ts).
    const payment = await lockFollowUpPaymentOrThrow({ tx, merchantId, mode, paymentRef });
    const paymentId = payment.id;
    const totals = payment.totals;
    const kind: FollowUpKind = FOLLOW_UP_KINDS[type];
    // A kind an acquirer does not offer is refused before anything is reserved.
    if (kind.capability && payment.processor && !capabilitiesOf(payment.processor, payment.platform)[kind.capability])
      throw invalidParameter("paymentid", `${payment.processor} offers no ${type}`);
    const amount = kind.amountRule(payment, totals, input.amount);
    // The result has to reach the merchant: without a request or configured address it is refused now.
    // Without a configured address, the result goes where the payment's own result went: the
    // address of its initialization (cardholder payments) or of its MIT request.
    const notificationUrl = input.notificationurl || payment.configuredNotificationUrl;
    if (!notificationUrl) throw invalidParameter("notificationurl", "is required: no notification address is configured for this merchant");
    // Raw SQL rather than `operation.create`, as the lock and the totals before it: on this hot
    // path Prisma's model API costs about 0.5 ms of CPU more per INSERT (docs/performance.md). The
    // columns left out take their schema defaults (routingAttempt 1, lookupAttempts 0);
    // createdAt comes from this process's clock, as Prisma's would.
    const operationId = newId();
    const insertOperation = Prisma.sql`
      INSERT INTO "Operation" ("id", "paymentId", "type", "amount", "currency", "status", "note", "tags", "reason", "responseId", "notificationUrl", "createdAt")
      VALUES (${operationId}, ${paymentId}, ${type}::"OperationType", ${amount}, ${payment.currency}, 'pending'::"OperationStatus",
        ${input.note ?? null}, ${input.tags ?? null}, ${reason ?? null}, ${responseId},
        -- Resolved once, here: the job and a re-sent event after a lost one notify the same address.
        ${notificationUrl}, ${new Date()})`;
    // The event that starts the background work is an outbox row of this transaction, written in
    // the same statement as the operation (embedded mode; send-event.ts): stored exactly when the
    // reservation is and never without it, and one round trip fewer in the transaction.
    const afterCommit = await sendEventInTransaction(tx, {
      type: followUpRequested,
      data: { operationId },
      id: `follow-up-${operationId}`,
      along: insertOperation,
    });
    // The Idempotency-Key's answer commits with the reservation: a repeat gets this responseid, never a second operation.
    await bindAnswer?.(tx, { responseid: responseId });
    return afterCommit;
  });
  await afterCommit();
  return { responseid: responseId };
}
