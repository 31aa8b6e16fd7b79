// Developers > Notifications: every notification across payments, its delivery state, attempts and
// the receiver's last answer, with filters and resend (as Stripe's Events with their deliveries).
import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { filtersToSearchParams, readListQuery, type SearchParams } from "@/lib/backoffice/log-filters";
import { listNotifications, parseNotificationFilters } from "@/lib/backoffice/queries/list-notifications";
import { DELIVERY_STATES, DELIVERY_STATE_MEANINGS } from "@/lib/backoffice/delivery-state";
import { NotificationKind } from "@/lib/generated/prisma/enums";
import { PageHeader } from "@/components/ui/card";
import { FilterFormActions } from "@/components/backoffice/filter-form-actions";
import { DateRangeFields, FilterCard, ListCard, OlderPager } from "@/components/backoffice/list-parts";
import { SelectField, TextField } from "@/components/ui/field";
import { DeliveryStateBadge } from "@/components/backoffice/delivery-state-badge";
import { HttpStatusBadge } from "@/components/backoffice/http-status-badge";
import { ResendNotificationButton } from "@/components/backoffice/resend-notification-button";
import { formatDateTime } from "@/components/backoffice/format";
import { resendFromLogAction } from "./actions";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

const PATH = "/backoffice/developers/notifications";

export default async function NotificationsLogPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { filters, errors, filterQuery, filtered, raw, after } = readListQuery(await searchParams, parseNotificationFilters, filtersToSearchParams);
  const page = await listNotifications({ merchantId: user.merchantId, mode: user.mode, filters, after });
  const canResend = roleCan(user.role, "payments:write");

  return (
    <>
      <PageHeader
        title="Notifications"
        description="Every notification sent to your addresses, newest first. The kind is also sent as the X-CPS-Notification-Kind header."
      />
      <FilterCard action={PATH} search label="Filter notifications" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <SelectField id="kind" label="Kind" defaultValue={raw("kind")} error={errors.kind} options={[{ value: "", label: "Any kind" }, ...Object.values(NotificationKind).map((value) => ({ value, label: value.replace("_", " ") }))]} />
        <SelectField id="status" label="Delivery" defaultValue={raw("status")} error={errors.status} options={[{ value: "", label: "Any state" }, ...DELIVERY_STATES.map((value) => ({ value, label: `${value}: ${DELIVERY_STATE_MEANINGS[value]}` }))]} />
        <TextField id="paymentId" label="Payment" placeholder="paymentid or merchantpaymentid" defaultValue={raw("paymentId")} error={errors.paymentId} />
        <DateRangeFields from={raw("from")} to={raw("to")} errors={errors} />
        <FilterFormActions clearHref={PATH} filtered={filtered} />
      </FilterCard>

      <ListCard empty={page.rows.length === 0} emptyText={filtered ? "No notifications match these filters." : "No notifications yet."} footer={<OlderPager path={PATH} filters={filterQuery} next={page.next} />}>
        <ul className="-mx-4 divide-y divide-slate-100 sm:-mx-6" aria-label="Notifications">
          {page.rows.map((row) => (
            <li key={row.id} className="px-4 py-3 sm:px-6" data-testid="notification-row" data-notification-id={row.id}>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-medium text-slate-900" data-testid="notification-kind">{row.kind.replace("_", " ")}</span>
                <DeliveryStateBadge state={row.state} />
                <span className="text-xs text-slate-600">
                  {row.attemptsMade} attempt{row.attemptsMade === 1 ? "" : "s"}
                  {row.state === "retrying" && row.nextAttemptAt ? ` · next ${formatDateTime(row.nextAttemptAt)}` : ""}
                  {row.status === "pending" && row.heldBackAt ? " · waiting for an earlier notification of its payment" : ""}
                </span>
                {row.lastAttempt ? (
                  <span className="flex items-center gap-1 text-xs text-slate-600">
                    last answer <HttpStatusBadge status={row.lastAttempt.statusCode} />
                  </span>
                ) : null}
                <span className="ml-auto whitespace-nowrap text-xs text-slate-500">{formatDateTime(row.createdAt)}</span>
              </div>
              <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
                {row.paymentId ? (
                  <Link href={`/backoffice/payments/${row.paymentId}`} className="text-indigo-700 hover:underline" title={row.paymentId}>
                    {row.payment?.merchantPaymentId ? <span className="font-medium">{row.payment.merchantPaymentId}</span> : <span className="font-mono">{row.paymentId}</span>}
                  </Link>
                ) : (
                  <span className="text-slate-500">{row.kind === "test" ? "test notification" : row.kind === "completion" ? "no payment: the window closed unpaid" : "no payment"}</span>
                )}
                <span className="min-w-0 max-w-full truncate font-mono text-slate-600" title={row.url}>
                  {row.url}
                </span>
                {row.lastAttempt?.error ? <span className="text-red-700">{row.lastAttempt.error}</span> : null}
                {canResend ? (
                  <span className="ml-auto">
                    <ResendNotificationButton action={resendFromLogAction} notificationId={row.id} paymentId={row.paymentId ?? ""} />
                  </span>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      </ListCard>
    </>
  );
}
