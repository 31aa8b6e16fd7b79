// Developers > Notifications: every notification of the signed-in merchant across payments (and the
// test notifications, which have none), newest first, keyset-paginated by (createdAt, id). The
// delivery state shown is the row's own: delivered, retrying (pending after an attempt that was not
// acknowledged, a later one scheduled), pending (not tried yet) or failed (the schedule ran out).
import { z } from "zod";
import { db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { NotificationKind, type NotificationStatus } from "../../generated/prisma/enums";
import { createdAtRange, decodeCursor, encodeCursor, isoDate, olderThan, optionalField, parseFilters } from "../log-filters";

export const NOTIFICATION_PAGE_SIZE = 50;

export const DELIVERY_STATES = ["delivered", "retrying", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number] | "pending";

const KINDS = Object.values(NotificationKind) as [NotificationKind, ...NotificationKind[]];

export const notificationFiltersSchema = z.object({
  kind: optionalField(z.enum(KINDS, { error: "Choose a kind from the list" })),
  status: optionalField(z.enum(DELIVERY_STATES, { error: "Choose delivered, retrying or failed" })),
  /** A paymentid or the merchant's own merchantpaymentid. */
  paymentId: optionalField(z.string().trim().regex(/^[\x21-\x7e]{1,64}$/, "Enter a paymentid or merchantpaymentid")),
  from: optionalField(isoDate),
  to: optionalField(isoDate),
});

export type NotificationFilters = z.infer<typeof notificationFiltersSchema>;

export function parseNotificationFilters(params: Record<string, string | string[] | undefined>) {
  return parseFilters(notificationFiltersSchema, params);
}

/** "retrying" is the stored `pending` (a row not tried yet is on its way to the same state). */
const STORED_STATUS: Record<(typeof DELIVERY_STATES)[number], NotificationStatus> = { delivered: "delivered", retrying: "pending", failed: "failed" };

export function deliveryState(row: { status: NotificationStatus; attemptCount: number }): DeliveryState {
  if (row.status === "pending") return row.attemptCount > 0 ? "retrying" : "pending";
  return row.status;
}

export async function listNotifications({ merchantId, filters = {}, after }: { merchantId: string; filters?: NotificationFilters; after?: string }) {
  const where: Prisma.NotificationWhereInput = {
    merchantId,
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.status ? { status: STORED_STATUS[filters.status] } : {}),
    ...(filters.from || filters.to ? { createdAt: createdAtRange(filters.from, filters.to) } : {}),
    AND: [
      olderThan(decodeCursor(after)),
      filters.paymentId ? { OR: [{ paymentId: filters.paymentId }, { payment: { merchantPaymentId: filters.paymentId } }] } : {},
    ],
  };
  const found = await db().notification.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: NOTIFICATION_PAGE_SIZE + 1,
    select: {
      id: true,
      kind: true,
      paymentId: true,
      url: true,
      status: true,
      attemptCount: true,
      nextAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
      attempts: { orderBy: { attemptNumber: "desc" }, take: 1, select: { attemptNumber: true, statusCode: true, error: true, startedAt: true } },
    },
  });
  const rows = found.slice(0, NOTIFICATION_PAGE_SIZE).map(({ attempts, ...row }) => ({ ...row, state: deliveryState(row), lastAttempt: attempts[0] ?? null }));
  const last = rows[rows.length - 1];
  return { rows, next: found.length > NOTIFICATION_PAGE_SIZE && last ? encodeCursor(last) : undefined };
}
