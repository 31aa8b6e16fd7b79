// Developers > API requests > one request: what was asked and answered (both bodies, card numbers
// masked), why it was refused, which key made it, whether the answer was an idempotent replay, and
// the notifications that carried its result. The request id is named as the X-Request-Id header the
// client got; "responseid" only when the answer carried one (a refusal does not).
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
    found = await getApiRequestOrThrow({ merchantId: user.merchantId, mode: user.mode, requestId });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const { request, responseId, apiKey, notifications } = found;
  const bodyLabel = request.method === "GET" || request.method === "HEAD" ? "Query parameters" : "Request body";
  return (
    <>
      <PageHeader title="API request" description={<Link href="/backoffice/developers/logs" className="text-indigo-700 hover:underline">← All API requests</Link>} />
      <Card title="Request" className="mb-6">
        <DescriptionList
          items={[
            { term: "Request", value: <span className="break-all font-mono text-xs" data-testid="request-line">{`${request.method} ${request.path}`}</span> },
            { term: "Status", value: <HttpStatusBadge status={request.statusCode} /> },
            { term: "Error code", value: <span className="font-mono">{request.errorCode ?? "—"}</span> },
            ...(request.errorDescription ? [{ term: "Error description", value: <span className="break-words">{request.errorDescription}</span> }] : []),
            { term: "API key", value: apiKey ? `${apiKey.name} (${apiKey.prefix}…)${apiKey.revokedAt ? ", since revoked" : ""}` : request.apiKeyId ? "a key since deleted" : "—" },
            {
              term: "Idempotent replay",
              value: request.idempotentReplay ? `Yes: the answer first given to Idempotency-Key ${request.idempotencyKey ?? ""}` : "No",
            },
            ...(request.idempotencyKey && !request.idempotentReplay ? [{ term: "Idempotency-Key", value: <span className="break-all font-mono text-xs">{request.idempotencyKey}</span> }] : []),
            ...(responseId ? [{ term: "responseid", value: <span className="break-all font-mono text-xs">{responseId}</span> }] : []),
            { term: "Request id (X-Request-Id)", value: <span className="break-all font-mono text-xs">{request.id}</span> },
            { term: "TraceApi", value: <span className="break-all font-mono text-xs">{request.traceApi ?? "—"}</span> },
            { term: "Duration", value: `${request.durationMs} ms` },
            { term: "Time (UTC)", value: formatDateTime(request.createdAt) },
          ]}
        />
      </Card>
      <div className="mb-6 grid gap-6 xl:grid-cols-2">
        <Card title={bodyLabel} description="As received; anything that looks like a card number is masked.">
          <JsonBlock text={request.requestBody} testId="request-body" empty={bodyLabel === "Request body" ? "(empty body)" : "(none)"} />
        </Card>
        <Card title="Answer body" description={`HTTP ${request.statusCode}, as sent; anything that looks like a card number is masked.`}>
          <JsonBlock text={request.responseBody} testId="response-body" empty="(not kept)" />
        </Card>
      </div>
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

/** Stored JSON, indented for reading (text that is not JSON as it is). */
function JsonBlock({ text, testId, empty }: { text: string | null; testId: string; empty: string }) {
  let shown = text ?? empty;
  if (text) {
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // kept as stored
    }
  }
  return (
    <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-3 text-xs text-slate-100" data-testid={testId}>
      {shown}
    </pre>
  );
}
