// Developers > API requests > one request: what was asked, what was answered, and the notifications
// that carried its result.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { NotFoundError } from "@/lib/auth/actor";
import { requireUser } from "@/lib/auth/session";
import { getApiRequestOrThrow } from "@/lib/backoffice/queries/get-api-request";
import { deliveryState } from "@/lib/backoffice/delivery-state";
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { HttpStatusBadge } from "@/components/backoffice/http-status-badge";
import { DeliveryStateBadge } from "@/components/backoffice/delivery-state-badge";
import { formatDateTime } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "API request" };
export const dynamic = "force-dynamic";

export default async function ApiRequestPage({ params }: { params: Promise<{ requestId: string }> }) {
  const user = await requireUser();
  const { requestId } = await params;
  let found: Awaited<ReturnType<typeof getApiRequestOrThrow>>;
  try {
    found = await getApiRequestOrThrow({ merchantId: user.merchantId, requestId });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const { request, notifications } = found;
  return (
    <>
      <PageHeader title="API request" description={<Link href="/backoffice/developers/logs" className="text-indigo-700 hover:underline">← All API requests</Link>} />
      <Card title="Request" className="mb-6">
        <DescriptionList
          items={[
            { term: "Request", value: <span className="break-all font-mono text-xs" data-testid="request-line">{`${request.method} ${request.path}`}</span> },
            { term: "Status", value: <HttpStatusBadge status={request.statusCode} /> },
            { term: "Error code", value: <span className="font-mono">{request.errorCode ?? "—"}</span> },
            { term: "responseid", value: <span className="break-all font-mono text-xs">{request.id}</span> },
            { term: "TraceApi", value: <span className="break-all font-mono text-xs">{request.traceApi ?? "—"}</span> },
            { term: "Duration", value: `${request.durationMs} ms` },
            { term: "Time (UTC)", value: formatDateTime(request.createdAt) },
          ]}
        />
      </Card>
      <Card title="Notifications for this request" description="Asynchronous results (capture, refund, void, MIT, payment details) come as notifications that carry this responseid.">
        {notifications.length === 0 ? (
          <p className="py-4 text-sm text-slate-600">None: this request answered on the connection, or its result has not been sent yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {notifications.map((notification) => (
              <li key={notification.id} className="flex flex-wrap items-center gap-3 py-2" data-testid="request-notification">
                <span className="font-medium">{notification.kind}</span>
                <DeliveryStateBadge state={deliveryState(notification)} />
                <span className="text-slate-600">{notification.attemptCount} attempt(s)</span>
                {notification.paymentId ? (
                  <Link className="font-mono text-xs text-indigo-700 hover:underline" href={`/backoffice/developers/notifications?paymentId=${notification.paymentId}`}>
                    {notification.paymentId}
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
