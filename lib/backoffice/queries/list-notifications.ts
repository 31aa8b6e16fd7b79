// Developers > Notifications: every notification of the signed-in merchant in the mode shown across
// payments (and the test notifications, which have none), newest first, keyset-paginated by (createdAt, id). The
// delivery state shown is the row's own, in the words of lib/backoffice/delivery-state.ts.
import { z } from "zod";
import { db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { NotificationKind } from "../../generated/prisma/enums";
import { DELIVERY_COLUMNS, DELIVERY_STATES, deliveryState, deliveryStateWhere } from "../delivery-state";
import { createdAtRange, dayRangeFields, decodeCursor, NEWEST_FIRST, newestFirstPage, olderThan, optionalField, parseFilters, type NewestFirstQuery } from "../log-filters";

export const NOTIFICATION_PAGE_SIZE = 50;

const KINDS = Object.values(NotificationKind) as [NotificationKind, ...NotificationKind[]];

export const notificationFiltersSchema = z.object({
  kind: optionalField(z.enum(KINDS, { error: "Choose a kind from the list" })),
  status: optionalField(z.enum(DELIVERY_STATES, { error: "Choose delivered, retrying, pending or failed" })),
  /** A paymentid or the merchant's own merchantpaymentid. */
  paymentId: optionalField(z.string().trim().regex(/^[\x21-\x7e]{1,64}$/, "Enter a paymentid or merchantpaymentid")),
  ...dayRangeFields,
});

export type NotificationFilters = z.infer<typeof notificationFiltersSchema>;

export function parseNotificationFilters(params: Record<string, string | string[] | undefined>) {
  return parseFilters(notificationFiltersSchema, params);
}

export async function listNotifications({ merchantId, mode, filters = {}, after }: NewestFirstQuery<NotificationFilters>) {
  const where: Prisma.NotificationWhereInput = {
    merchantId,
    mode,
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.status ? deliveryStateWhere(filters.status) : {}),
    ...(filters.from || filters.to ? { createdAt: createdAtRange(filters.from, filters.to) } : {}),
    AND: [
      olderThan(decodeCursor(after)),
      filters.paymentId ? { OR: [{ paymentId: filters.paymentId }, { payment: { merchantPaymentId: filters.paymentId } }] } : {},
    ],
  };
  const found = await db().notification.findMany({
    where,
    orderBy: NEWEST_FIRST,
    take: NOTIFICATION_PAGE_SIZE + 1,
    select: {
      id: true,
      kind: true,
      paymentId: true,
      // The order number the merchant knows the payment by, shown before the hex paymentid.
      payment: { select: { merchantPaymentId: true } },
      ...DELIVERY_COLUMNS,
      attempts: { orderBy: [{ startedAt: "desc" }, { attemptNumber: "desc" }], take: 1, select: { attemptNumber: true, resend: true, statusCode: true, error: true, startedAt: true } },
      // Every attempt made, resends included (attemptCount is the schedule's position).
      _count: { select: { attempts: true } },
    },
  });
  const { rows, next } = newestFirstPage(found, NOTIFICATION_PAGE_SIZE);
  return { rows: rows.map(({ attempts, _count, ...row }) => ({ ...row, attemptsMade: _count.attempts, state: deliveryState(row), lastAttempt: attempts[0] ?? null })), next };
}
