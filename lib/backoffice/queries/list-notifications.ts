// Developers > Notifications: every notification of the signed-in merchant in the mode shown across
// payments (and the test notifications, which have none), newest first, keyset-paginated by (createdAt, id). The
// delivery state shown is the row's own, in the words of lib/backoffice/delivery-state.ts.
import type { Mode } from "../../mode";
import { z } from "zod";
import { db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { NotificationKind } from "../../generated/prisma/enums";
import { DELIVERY_STATES, deliveryState, deliveryStateWhere } from "../delivery-state";
import { createdAtRange, decodeCursor, encodeCursor, isoDate, olderThan, optionalField, parseFilters } from "../log-filters";

export const NOTIFICATION_PAGE_SIZE = 50;

const KINDS = Object.values(NotificationKind) as [NotificationKind, ...NotificationKind[]];

export const notificationFiltersSchema = z.object({
  kind: optionalField(z.enum(KINDS, { error: "Choose a kind from the list" })),
  status: optionalField(z.enum(DELIVERY_STATES, { error: "Choose delivered, retrying, pending or failed" })),
  /** A paymentid or the merchant's own merchantpaymentid. */
  paymentId: optionalField(z.string().trim().regex(/^[\x21-\x7e]{1,64}$/, "Enter a paymentid or merchantpaymentid")),
  from: optionalField(isoDate),
  to: optionalField(isoDate),
});

export type NotificationFilters = z.infer<typeof notificationFiltersSchema>;

export function parseNotificationFilters(params: Record<string, string | string[] | undefined>) {
  return parseFilters(notificationFiltersSchema, params);
}

export async function listNotifications({
  merchantId,
  mode,
  filters = {},
  after,
}: {
  merchantId: string;
  mode: Mode;
  filters?: NotificationFilters;
  after?: string;
}) {
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
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: NOTIFICATION_PAGE_SIZE + 1,
    select: {
      id: true,
      kind: true,
      paymentId: true,
      // The order number the merchant knows the payment by, shown before the hex paymentid.
      payment: { select: { merchantPaymentId: true } },
      url: true,
      status: true,
      attemptCount: true,
      nextAttemptAt: true,
      heldBackAt: true,
      deliveredAt: true,
      createdAt: true,
      attempts: { orderBy: [{ startedAt: "desc" }, { attemptNumber: "desc" }], take: 1, select: { attemptNumber: true, resend: true, statusCode: true, error: true, startedAt: true } },
      // Every attempt made, resends included (attemptCount is the schedule's position).
      _count: { select: { attempts: true } },
    },
  });
  const rows = found.slice(0, NOTIFICATION_PAGE_SIZE).map(({ attempts, _count, ...row }) => ({ ...row, attemptsMade: _count.attempts, state: deliveryState(row), lastAttempt: attempts[0] ?? null }));
  const last = rows[rows.length - 1];
  return { rows, next: found.length > NOTIFICATION_PAGE_SIZE && last ? encodeCursor(last) : undefined };
}
