// Writes a processor's answer to a pending capture, refund or void, brings the payment's amounts
// and status in line with its approved operations, and stores the merchant's notification of the
// result (the outbox row), all or nothing: one round trip, the database's cps_record_follow_up
// (prisma/migrations/20261129120000_record_follow_up_in_one_round_trip, issue 37). Recomputing the
// amounts from the operations (rather than adding to counters) makes a repeated call harmless.
import type { AcquirerName } from "../acquirers/names";
import { db, hotSql, Prisma, type SqlRunner, type Tx } from "../db";
import type { ProcessorResult } from "../acquirers/contract";
import { noteLateAnswer } from "./alert-operator";
import { notificationText } from "../notifications/enqueue-notification";
import type { NotificationForAttempt } from "../notifications/deliver-notification-attempt";
import { operationNotification, type OperationNotification } from "./notify-operation-result";
import type { Mode } from "../mode";
import { operationResultFields } from "./operation-result-fields";
import { wakeWaitingRefunds } from "./wake-waiting-refunds";
import { FOLLOW_UP_TYPES } from "./follow-ups/kinds";

/**
 * What the record needs of the operation and its payment besides the answer: columns no one changes
 * after the operation is accepted, so a caller that read them already (the follow-up job's claim)
 * passes them and the record reads nothing before its round trip.
 */
export interface FollowUpFacts {
  paymentId: string;
  type: string;
  notificationUrl: string | null;
  responseId: string | null;
  merchantId: string;
  mode: Mode;
  merchantPaymentId: string | null;
}

/** The facts' columns of an operation `o` and its payment `p`, for a caller's own statement. */
export const FOLLOW_UP_FACTS_COLUMNS = Prisma.sql`
  o."paymentId", o."type"::text AS "type", o."notificationUrl", o."responseId",
  p."merchantId", p."mode"::text AS "mode", p."merchantPaymentId"`;

export interface RecordFollowUpResultOptions {
  operationId: string;
  result: Pick<ProcessorResult, "status" | "responsecode" | "authorizationcode" | "processorReference" | "message">;
  processor: AcquirerName | null;
  /** Who gave the answer, for the operator alert when it contradicts an earlier settlement. */
  source?: string;
  now?: Date;
  /** The caller's transaction (an operator's settlement writes its audit entry in it); else one of its own. */
  tx?: Tx;
  /** The operation's facts when the caller read them (else they are read first). */
  facts?: FollowUpFacts;
}

export interface FollowUpRecord {
  /** False when the operation was no longer pending (already recorded). */
  recorded: boolean;
  /** The notification stored with the result (dispatch it after the commit), null when none. */
  notificationId: string | null;
  /**
   * That notification as its first attempt reads it, when the record found that the ordering rule
   * cannot hold it back (decision 0215): the attempt then sends without a read. Absent otherwise.
   */
  firstAttempt?: NotificationForAttempt;
}

/**
 * Returns false when the operation was no longer pending (already recorded): an answer that
 * contradicts the recorded one then alerts an operator with both facts, never a silent drop.
 */
export async function recordFollowUpResult(options: RecordFollowUpResultOptions): Promise<boolean> {
  return (await recordFollowUpResultAndNotification(options)).recorded;
}

type RecordOutcome = {
  outcome: "recorded" | "late" | "refunds-waiting";
  refundsWaiting: boolean;
  notificationId: string | null;
  /** cps_notification_for_attempt's row as JSON, when nothing else of the payment is pending and its window is closed. */
  firstAttempt: Omit<NotificationForAttempt, "heldBack"> | null;
};

/**
 * The same, with the id of the notification stored in the same transaction, so a caller that
 * delivers it needs no read to find it (the follow-up job, issue 37).
 */
export async function recordFollowUpResultAndNotification({
  operationId,
  result,
  processor,
  source = "the acquirer",
  now = new Date(),
  tx: outer,
  facts: given,
}: RecordFollowUpResultOptions): Promise<FollowUpRecord> {
  const facts = given ?? (await readFacts(operationId, outer));
  const fields = operationResultFields(result, now);
  // A merchant request's operation (it has an address) is notified; an instant capture is
  // reported by the payment's completion notification instead.
  const notification = facts.notificationUrl
    ? operationNotification({
        operationId,
        type: facts.type,
        status: fields.status,
        responseCode: fields.responseCode,
        authorizationCode: fields.authorizationCode,
        responseId: facts.responseId,
        url: facts.notificationUrl,
        payment: { id: facts.paymentId, merchantId: facts.merchantId, mode: facts.mode, merchantPaymentId: facts.merchantPaymentId },
      })
    : null;
  const stored = notification && { ...notification, text: notificationText(notification.body, facts.mode) };
  const record = (client: SqlRunner, stopIfRefundsWaiting: boolean) =>
    recordInOneRoundTrip(client, { operationId, fields, processor, notification: stored, stopIfRefundsWaiting });
  // Refunds accepted while this capture was pending run now, or fail with its reason: only a
  // capture's record wakes them (the function answers whether any wait, whatever the kind).
  const wakeRefunds = (tx: Tx, done: RecordOutcome) =>
    facts.type === "capture" && done.refundsWaiting ? wakeWaitingRefunds(tx, { paymentId: facts.paymentId, captureOperationId: operationId }) : undefined;
  const late = async (tx?: Tx): Promise<FollowUpRecord> => {
    await noteLateAnswer({ operationId, answer: result, source, now, tx });
    return { recorded: false, notificationId: null };
  };
  if (outer) {
    // In the caller's transaction the wake-up's outbox rows commit with it (embedded mode); with an
    // Inngest server the stalled-work job sends a waiting refund's event within a minute instead.
    const done = await record(outer, false);
    if (done.outcome === "late") return late(outer);
    await wakeRefunds(outer, done);
    return { recorded: true, notificationId: done.notificationId };
  }
  // On its own: one statement, committed by itself, in nearly every case. A capture whose payment
  // has refunds waiting for it writes nothing there and is recorded again in a transaction that
  // also wakes them.
  const first = await record(hotSql(), true);
  if (first.outcome === "late") return late();
  if (first.outcome === "recorded") {
    // Handed over only when nothing else of the payment was pending and its window was closed,
    // read after the payment's lock: then the ordering rule cannot hold it back (the quiet check
    // in cps_record_follow_up; lib/notifications/hold-back.ts, decision 0215).
    const read = first.firstAttempt;
    if (!read) return { recorded: true, notificationId: first.notificationId };
    const { id, merchantId, mode, kind, url, body, status, endpointId, secrets, copies, attemptCount } = read;
    const firstAttempt = { id, merchantId, mode, kind, url, body, status, endpointId, secrets, copies, attemptCount, heldBack: false };
    return { recorded: true, notificationId: first.notificationId, firstAttempt };
  }
  let afterCommit: (() => Promise<void>) | undefined;
  const again = await db().$transaction(async (tx) => {
    const done = await record(tx, false);
    if (done.outcome === "recorded") afterCommit = await wakeRefunds(tx, done);
    return done;
  });
  if (again.outcome === "late") return late();
  await afterCommit?.();
  return { recorded: true, notificationId: again.notificationId };
}

async function readFacts(operationId: string, tx?: Tx): Promise<FollowUpFacts> {
  const [facts] = await (tx ?? db()).$queryRaw<FollowUpFacts[]>`
    SELECT ${FOLLOW_UP_FACTS_COLUMNS}
    FROM "Operation" o JOIN "Payment" p ON p."id" = o."paymentId"
    WHERE o."id" = ${operationId}`;
  if (!facts) throw new Error(`operation ${operationId} does not exist`);
  return facts;
}

async function recordInOneRoundTrip(
  client: SqlRunner,
  {
    operationId,
    fields,
    processor,
    notification,
    stopIfRefundsWaiting,
  }: {
    operationId: string;
    fields: ReturnType<typeof operationResultFields>;
    processor: AcquirerName | null;
    notification: (OperationNotification & { text: string }) | null;
    stopIfRefundsWaiting: boolean;
  },
): Promise<RecordOutcome> {
  const [row] = await client.$queryRaw<RecordOutcome[]>`
    SELECT "outcome", "refundsWaiting", "notificationId", "firstAttempt" FROM "cps_record_follow_up"(
      ${operationId}, ${fields.status}::"OperationStatus", ${fields.responseCode}, ${fields.authorizationCode},
      ${fields.processorReference}, ${fields.errorMessage}, ${fields.completedAt}::timestamp(3), ${processor}::"Processor",
      ARRAY[${Prisma.join(FOLLOW_UP_TYPES)}]::text[], ${new Date()}::timestamp(3), ${stopIfRefundsWaiting},
      ${notification?.id ?? null}, ${notification?.kind ?? null}::"NotificationKind", ${notification?.url ?? null}, ${notification?.text ?? null})`;
  // The function answers one row or raises (an operation that does not exist).
  if (!row) throw new Error(`cps_record_follow_up answered no row for operation ${operationId}`);
  return row;
}
