// A notification's delivery state, in one word per state on every page (newcomer review F12: the
// same notifications were "pending" on the overview and the payment page but "retrying" under
// Developers). The stored status has three values; the stored `pending` is two states for people:
// not attempted yet (pending) and refused at least once with a later attempt scheduled (retrying).
import type { Prisma } from "../generated/prisma/client";
import type { NotificationStatus } from "../generated/prisma/enums";

export const DELIVERY_STATES = ["delivered", "retrying", "pending", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What each word means, for the filter's options and the overview's captions. */
export const DELIVERY_STATE_MEANINGS: Record<DeliveryState, string> = {
  delivered: "acknowledged with HTTP 200",
  retrying: "refused so far, another attempt is scheduled",
  pending: "not attempted yet",
  failed: "every attempt of the schedule was refused",
};

export function deliveryState(row: { status: NotificationStatus; attemptCount: number }): DeliveryState {
  if (row.status === "pending") return row.attemptCount > 0 ? "retrying" : "pending";
  return row.status;
}

/** What a list of notifications shows of each one's delivery (a Prisma select): where, its state and when. */
export const DELIVERY_COLUMNS = {
  url: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  heldBackAt: true,
  deliveredAt: true,
  createdAt: true,
} as const;

/** The same rule as a where clause, for the notification filters. */
export function deliveryStateWhere(state: DeliveryState): Prisma.NotificationWhereInput {
  switch (state) {
    case "retrying":
      return { status: "pending", attemptCount: { gt: 0 } };
    case "pending":
      return { status: "pending", attemptCount: 0 };
    default:
      return { status: state };
  }
}
