// The one ordering rule of notifications (docs/integration.md, "Notifications"; decision 0155): a
// payment's notifications reach the merchant in the order of its state changes, whatever address
// each goes to. A notification is held back while
// - the payment's window is still open: its completion (spec 6.2) is the payment's first word;
// - an earlier state change of the payment is still to be delivered to one of the merchant's own
//   addresses (the request's notificationurl, the configured completion, default or life-cycle
//   address): acknowledged, or its schedule used up, releases what waits behind it;
// - for a webhook endpoint's copy, also the endpoint's own earlier copies.
// A failing webhook endpoint never holds back the merchant's addresses or another endpoint.
// Payment details (an answer to a query, not a state change) and test notifications neither wait
// nor hold anything back. The SQL fragments below are relative to the row `n`; the attempt, the
// release and the stalled-work job use the same ones.
import { Prisma } from "../generated/prisma/client";

/** `e` reports an earlier state change of `n`'s payment than `n` does and is still to be delivered to an address `n` waits for. */
export const EARLIER_PENDING_THAN_N = Prisma.sql`
  e."paymentId" = n."paymentId" AND e."id" <> n."id" AND e."status" = 'pending'
  AND e."kind" NOT IN ('test', 'payment_details')
  AND (e."copyOfId" IS NULL OR e."endpointId" = n."endpointId")
  AND (
    (e."kind" = 'completion' AND n."kind" <> 'completion')
    OR ((e."kind" = 'completion') = (n."kind" = 'completion')
      AND (e."createdAt", COALESCE(e."copyOfId", e."id")) < (n."createdAt", COALESCE(n."copyOfId", n."id"))))`;

/** `n` is one of the notifications the rule orders. */
const ORDERED_N = Prisma.sql`n."paymentId" IS NOT NULL AND n."kind" NOT IN ('test', 'payment_details')`;

/** The payment's window has not ended yet (its completion is still to be written). */
const WINDOW_OPEN_FOR_N = Prisma.sql`
  n."kind" <> 'completion' AND EXISTS (
    SELECT 1 FROM "PaymentSession" s WHERE s."paymentId" = n."paymentId" AND s."status" IN ('OPEN', 'PROCESSING'))`;

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
    SELECT 1 FROM "PaymentSession" s WHERE s."paymentId" = n."paymentId" AND s."status" IN ('OPEN', 'PROCESSING') FOR SHARE OF s))))`;
