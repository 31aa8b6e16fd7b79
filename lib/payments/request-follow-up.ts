// The common part of capture, refund and void requests: check the amount rules against approved
// and pending operations, and reserve the amount by inserting the pending operation. The processor
// call and the notification then run in the background (lib/jobs/run-follow-up-operation.ts), which
// releases the reservation on decline; the event that starts them is written in the same statement.
// Two statements and no BEGIN or COMMIT (decision 0212): the payment is read without a lock, the
// rules decide, and one statement takes the payment's lock and inserts the operation with its event
// only if the state the rules decided on is unchanged; if it changed (a concurrent request reserved,
// the processor answered), the request is decided again on the new state.
import { db, hotSql, Prisma, type SqlRunner, type Tx } from "../db";
import { invalidParameter, serviceUnavailable } from "../errors";
import { newId } from "../ids";
import { followUpRequested } from "../inngest/events/merchant-api";
import { sendEventIfWritten } from "../inngest/send-event";
import type { OperationRequest } from "../validation/operation";
import { capabilitiesOf } from "../acquirers/capabilities";
import { FOLLOW_UP_KINDS, type FollowUpKind, type FollowUpType } from "./follow-ups/kinds";
import { readFollowUpPaymentOrThrow } from "./read-follow-up-payment";
import type { Mode } from "../mode";

/**
 * Decisions on a payment whose state keeps changing under them before the request gives up with
 * 503 (nothing done; retry). Each one lost means another operation of the payment was reserved or
 * answered in between, so the payment's operations progress; the limit only bounds one request's work.
 */
const MAX_DECISIONS = 10;

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

export async function requestFollowUp(options: RequestFollowUpOptions): Promise<{ responseid: string }> {
  const { bindAnswer, responseId } = options;
  // With an Idempotency-Key its answer commits with the reservation: a repeat gets this responseid,
  // never a second operation. Without one the reservation's statement is its own transaction, run
  // on the driver (hotSql, decision 0214).
  const afterCommit = bindAnswer
    ? await db().$transaction(async (tx: Tx) => {
        const reserved = await reserveFollowUp(tx, options);
        await bindAnswer(tx, { responseid: responseId });
        return reserved;
      })
    : await reserveFollowUp(hotSql(), options);
  await afterCommit();
  return { responseid: responseId };
}

async function reserveFollowUp(
  database: SqlRunner,
  { merchantId, mode, paymentRef, responseId, input, type, reason }: RequestFollowUpOptions,
): Promise<() => Promise<void>> {
  const kind: FollowUpKind = FOLLOW_UP_KINDS[type];
  for (let decision = 1; decision <= MAX_DECISIONS; decision += 1) {
    const payment = await readFollowUpPaymentOrThrow({ database, merchantId, mode, paymentRef });
    // A kind an acquirer does not offer is refused before anything is reserved.
    if (kind.capability && payment.processor && !capabilitiesOf(payment.processor, payment.platform)[kind.capability])
      throw invalidParameter("paymentid", `${payment.processor} offers no ${type}`);
    const amount = kind.amountRule(payment, payment.totals, input.amount);
    // The result has to reach the merchant: without a request or configured address it is refused now.
    // Without a configured address, the result goes where the payment's own result went: the
    // address of its initialization (cardholder payments) or of its MIT request.
    const notificationUrl = input.notificationurl || payment.configuredNotificationUrl;
    if (!notificationUrl) throw invalidParameter("notificationurl", "is required: no notification address is configured for this merchant");
    // Raw SQL rather than `operation.create`: on this hot path Prisma's model API costs about
    // 0.5 ms of CPU more per INSERT (docs/performance.md). The columns left out take their schema
    // defaults (routingAttempt 1, lookupAttempts 0); createdAt comes from this process's clock, as
    // Prisma's would. The guard (cps_follow_up_unchanged) locks the payment until the statement's
    // transaction ends, and is true only if the payment is as read above.
    const operationId = newId();
    const insertOperation = Prisma.sql`
      INSERT INTO "Operation" ("id", "paymentId", "type", "amount", "currency", "status", "note", "tags", "reason", "responseId", "notificationUrl", "createdAt")
      SELECT ${operationId}, ${payment.id}, ${type}::"OperationType", ${amount}, ${payment.currency}, 'pending'::"OperationStatus",
        ${input.note ?? null}, ${input.tags ?? null}, ${reason ?? null}, ${responseId},
        -- Resolved once, here: the job and a re-sent event after a lost one notify the same address.
        ${notificationUrl}, ${new Date()}
      WHERE ${payment.unchanged}
      RETURNING "id"`;
    // The event that starts the background work is an outbox row written in the operation's
    // statement (send-event.ts): stored exactly when the reservation is, and never without it.
    const reserved = await sendEventIfWritten(database, {
      type: followUpRequested,
      data: { operationId },
      id: `follow-up-${operationId}`,
      along: insertOperation,
    });
    if (reserved) return reserved;
  }
  throw serviceUnavailable();
}
