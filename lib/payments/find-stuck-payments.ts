// What the job lib/jobs/finish-stuck-payments.ts works on: authorization attempts whose outcome is
// still unknown and whose next look-up is due (settled by lib/payments/settle-unknown-operation.ts),
// and merchant-initiated payments still PENDING although none of their attempts is (their run died
// between its attempts and the payment's final state). Oldest first, bounded, never the same rows
// that nothing can change (attempts wait for their next look-up time; finished payments drop out).
import { db } from "../db";
import { MIT_PAYMENT_TYPES } from "../validation/mit";
import { lookupDue } from "./lookup-due";

/** Work younger than this is left to the request or run that is doing it. */
export const STUCK_AFTER_MS = 60_000;

export async function findDueAuthorizationAttempts({ now = new Date(), limit = 100 }: { now?: Date; limit?: number } = {}) {
  const before = new Date(now.getTime() - STUCK_AFTER_MS);
  return db().operation.findMany({
    where: {
      type: "authorize",
      status: "pending",
      processor: { not: null },
      // The call's lease is checked by the settler; an attempt from before leases has no mark.
      OR: [{ callEndedAt: { lte: before } }, { callEndedAt: null, createdAt: { lte: before } }],
      AND: [lookupDue(now)],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, paymentId: true },
  });
}

export async function findUnfinishedMits({ now = new Date(), limit = 100 }: { now?: Date; limit?: number } = {}): Promise<string[]> {
  const payments = await db().payment.findMany({
    where: {
      status: "PENDING",
      paymentType: { in: [...MIT_PAYMENT_TYPES] },
      requestResponseId: { not: null },
      updatedAt: { lte: new Date(now.getTime() - STUCK_AFTER_MS) },
      AND: [{ operations: { some: { type: "authorize" } } }, { operations: { none: { type: "authorize", status: "pending" } } }],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true },
  });
  return payments.map(({ id }) => id);
}
