// The one ordering rule of notifications (docs/integration.md, "Notifications"; decision 0155),
// the same for the merchant's addresses and every webhook endpoint's copy:
// - nothing of a payment goes anywhere before its completion (spec 6.2) has been acknowledged or
//   has given up: while the payment's window is open, and while the completion to the merchant's
//   address is pending, every other notification of the payment waits;
// - after that, each receiver gets the payment's notifications in the order of its state changes:
//   one waits while an earlier one of the payment to the same receiver is pending. A receiver is one
//   of the merchant's hosts (an address's origin: a shop's completion and default paths are one
//   receiver) or one webhook endpoint; another receiver that refuses holds nothing back.
// Payment details (an answer to a query, not a state change) and test notifications neither wait
// nor hold anything back. Pending ends with an acknowledgement or when the schedule is used up.
// The SQL fragments below are relative to the row `n`; the attempt, the release and the
// stalled-work job use the same ones. A follow-up's record hands its notification's first attempt
// its read only when the payment is quiet (no other of its notifications pending but the new one's
// own copies, test notifications and payment details; no open window): a necessary condition of
// this rule, checked in cps_record_follow_up (decision 0215). A change that lets the rule hold a
// notification back for anything else must widen that check too; the decision's tests hold them
// together.
import { Prisma } from "../generated/prisma/client";

const ORIGIN_OF_E = Prisma.sql`substring(e."url" from '^[A-Za-z]+://[^/?#]+')`;
const ORIGIN_OF_N = Prisma.sql`substring(n."url" from '^[A-Za-z]+://[^/?#]+')`;

/**
 * `e` is still to be delivered and must reach the merchant before `n`. Statuses here are compared as
 * text so that the payment's index finds the rows, never the status index (decision 0237).
 */
export const EARLIER_PENDING_THAN_N = Prisma.sql`
  e."paymentId" = n."paymentId" AND e."id" <> n."id" AND e."status"::text = 'pending'
  AND e."kind" NOT IN ('test', 'payment_details')
  AND (
    -- The payment's completion to the merchant's address, before anything else anywhere.
    (e."kind" = 'completion' AND e."copyOfId" IS NULL AND n."kind" <> 'completion')
    -- An earlier state change to the same receiver (a completion counts as the earliest).
    OR (e."endpointId" IS NOT DISTINCT FROM n."endpointId" AND ${ORIGIN_OF_E} = ${ORIGIN_OF_N}
      AND ((e."kind" = 'completion' AND n."kind" <> 'completion')
        OR ((e."kind" = 'completion') = (n."kind" = 'completion')
          AND (e."createdAt", COALESCE(e."copyOfId", e."id")) < (n."createdAt", COALESCE(n."copyOfId", n."id"))))))`;

/** `n` is one of the notifications the rule orders. */
const ORDERED_N = Prisma.sql`n."paymentId" IS NOT NULL AND n."kind" NOT IN ('test', 'payment_details')`;

/** The payment's window has not ended yet (its completion is still to be written). */
const WINDOW_OPEN_FOR_N = Prisma.sql`
  n."kind" <> 'completion' AND EXISTS (
    SELECT 1 FROM "PaymentSession" s WHERE s."paymentId" = n."paymentId" AND s."status"::text IN ('OPEN', 'PROCESSING'))`;

/** Whether `n` is held back now. */
export const HELD_BACK_N = Prisma.sql`(${ORDERED_N} AND (
  EXISTS (SELECT 1 FROM "Notification" e WHERE ${EARLIER_PENDING_THAN_N}) OR (${WINDOW_OPEN_FOR_N})))`;

/**
 * The same condition, taking a share lock on what holds `n` back, for the statement that records
 * the hold: a notification or window that is being released at that moment is waited for and read
 * again, so a hold is never recorded after its release has looked for it.
 */
export const HELD_BACK_N_LOCKING = Prisma.sql`(${ORDERED_N} AND (
  EXISTS (SELECT 1 FROM "Notification" e WHERE ${EARLIER_PENDING_THAN_N} FOR SHARE OF e)
  OR (n."kind" <> 'completion' AND EXISTS (
    SELECT 1 FROM "PaymentSession" s WHERE s."paymentId" = n."paymentId" AND s."status"::text IN ('OPEN', 'PROCESSING') FOR SHARE OF s))))`;
