// Follow-ups that chain (docs/decisions/0109-a-refund-accepted-while-its-capture-is-pending-waits.md,
// amended by docs/decisions/0146-a-refund-names-its-capture-when-it-is-claimed.md). A refund is
// accepted against captures still pending (their amount is reserved, so refunds never exceed what
// is captured or being captured), but it goes to the acquirer only once the captured amount covers
// it: an acquirer refuses a refund of a capture it has not made, and Finaro's names the capture it
// gives back. So before its call a refund either
// - is claimed (the outcome mark, as every follow-up: lib/payments/process-follow-up-operation.ts)
//   when the approved captures, less the refunds approved or already at the acquirer, cover it, and
//   one approved capture has room for it or no capture is pending any more (the capture it gives
//   back is named then: choose-refund-capture.ts);
// - waits, marked `waitingSince`, while a capture of the payment is pending: recording that
//   capture's result wakes it (lib/payments/wake-waiting-refunds.ts, in the same transaction);
// - fails with the reason of the capture it counted on, when no capture is pending any more and
//   the approved ones do not cover it (the capture was declined or failed). Nothing goes to the acquirer.
// Decided under the payment's row lock, as every amount rule and every recorded result: a capture
// recorded meanwhile is seen, and its wake-up finds this refund's mark. A claimed refund names the
// capture it gives back in the same transaction (choose-refund-capture.ts).
import { db, type Tx } from "../db";
import { RESPONSE_CODES } from "../acquirers/contract";
import { chooseRefundCapture } from "./choose-refund-capture";
import { recordFollowUpResult } from "./record-follow-up-result";

export type RefundClaim =
  | { kind: "claimed" }
  /** No longer pending, or already claimed by another run: the caller looks it up as any claimed operation. */
  | { kind: "taken" }
  | { kind: "waiting" }
  /** The captures it counted on failed: recorded so (no acquirer was called), and notified. */
  | { kind: "capture-failed"; status: "declined" | "failed" };

export async function claimRefundAfterCaptures({ operationId, now = new Date() }: { operationId: string; now?: Date }): Promise<RefundClaim> {
  return db().$transaction(async (tx: Tx): Promise<RefundClaim> => {
    const [locked] = await tx.$queryRaw<{ paymentId: string }[]>`
      SELECT p."id" AS "paymentId" FROM "Payment" p JOIN "Operation" o ON o."paymentId" = p."id"
      WHERE o."id" = ${operationId} FOR UPDATE OF p`;
    if (!locked) return { kind: "taken" };
    const [row] = await tx.$queryRaw<{ amount: bigint; captured: bigint; atAcquirer: bigint; pendingCaptures: number }[]>`
      SELECT r."amount",
        COALESCE(SUM(o."amount") FILTER (WHERE o."type" = 'capture' AND o."status" = 'approved'), 0)::bigint AS "captured",
        -- Refunds approved, or sent (their outcome mark is set): what the acquirer has given back or may have.
        COALESCE(SUM(o."amount") FILTER (WHERE o."type" = 'refund' AND o."id" <> r."id"
          AND (o."status" = 'approved' OR (o."status" = 'pending' AND o."outcomeUnknownSince" IS NOT NULL))), 0)::bigint AS "atAcquirer",
        COUNT(*) FILTER (WHERE o."type" = 'capture' AND o."status" = 'pending')::int AS "pendingCaptures"
      FROM "Operation" r JOIN "Operation" o ON o."paymentId" = r."paymentId"
      WHERE r."id" = ${operationId} AND r."status"::text = 'pending' AND r."outcomeUnknownSince" IS NULL
      GROUP BY r."id", r."amount"`;
    if (!row) return { kind: "taken" };
    if (BigInt(row.captured) - BigInt(row.atAcquirer) >= BigInt(row.amount)) {
      // The capture it gives back is chosen now, under the lock, and named on the refund before the
      // lock goes. Where no single capture has room yet and another is still pending, it waits for
      // that one (an acquirer that refunds per capture would refuse it now).
      const capture = await chooseRefundCapture({ tx, paymentId: locked.paymentId, refundId: operationId, amount: BigInt(row.amount) });
      if (capture || row.pendingCaptures === 0) {
        await tx.operation.update({
          where: { id: operationId },
          data: { outcomeUnknownSince: now, waitingSince: null, ...(capture ? { referencedOperationId: capture } : {}) },
        });
        return { kind: "claimed" };
      }
    }
    if (row.pendingCaptures > 0) {
      await tx.$executeRaw`UPDATE "Operation" SET "waitingSince" = COALESCE("waitingSince", ${now}) WHERE "id" = ${operationId}`;
      return { kind: "waiting" };
    }
    const capture = await tx.operation.findFirst({
      where: { paymentId: locked.paymentId, type: "capture", status: { in: ["declined", "failed"] } },
      orderBy: [{ completedAt: "desc" }, { createdAt: "desc" }],
      select: { status: true, responseCode: true, errorMessage: true },
    });
    const reason = capture?.errorMessage ?? "no reason given";
    const status: "declined" | "failed" = capture?.status === "declined" ? "declined" : "failed";
    const result = capture
      ? {
          status,
          responsecode: capture.responseCode ?? RESPONSE_CODES.invalidTransaction,
          message: `the capture it followed ${status === "declined" ? "was declined" : "failed"}: ${reason}`,
        }
      : { status, responsecode: RESPONSE_CODES.invalidTransaction, message: "the captured amount left to refund does not cover it" };
    // In this transaction, under the lock: nothing can claim the refund between the decision and its record.
    await recordFollowUpResult({ operationId, result, processor: null, source: "the service", now, tx });
    return { kind: "capture-failed", status };
  });
}
