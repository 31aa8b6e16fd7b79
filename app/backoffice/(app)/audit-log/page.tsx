import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { listAuditEntries } from "@/lib/backoffice/queries/list-audit-entries";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

const ACTION_LABELS: Record<string, string> = {
  "api_key.created": "Created API key",
  "api_key.rolled": "Rolled API key",
  "api_key.revoked": "Revoked API key",
  "settings.notification_urls.updated": "Changed notification URLs",
  "settings.checkout_origins.updated": "Changed allowed checkout origins",
  "hosted_integration.created": "Created hosted integration",
  "hosted_integration.updated": "Changed hosted integration",
  "notification.test_sent": "Sent test notification",
  "notification.resent": "Resent notification",
  "team.user_added": "Added user",
  "team.role_changed": "Changed a user's role",
  "team.user_removed": "Removed user",
  "user.totp_enabled": "Turned on two-factor authentication",
  "user.totp_disabled": "Turned off two-factor authentication",
  "payment.capture_requested": "Requested capture",
  "payment.refund_requested": "Requested refund",
  "payment.void_requested": "Requested void",
};

function summary(details: unknown): string {
  if (!details || typeof details !== "object") return "";
  const entries = Object.entries(details as Record<string, unknown>).filter(([, value]) => value !== null && value !== undefined && typeof value !== "object");
  return entries.map(([key, value]) => `${key}: ${String(value)}`).join(" · ");
}

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const user = await requireUser();
  const { before } = await searchParams;
  const { rows, next } = await listAuditEntries({ merchantId: user.merchantId, before });
  return (
    <>
      <PageHeader title="Audit log" description="Who changed keys and settings, and when. Newest first." />
      <Card>
        {rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">Nothing recorded yet.</p>
        ) : (
          <div className="-mx-4 overflow-x-auto sm:-mx-6">
            <table className="min-w-full text-sm" aria-label="Audit log">
              <thead className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 sm:px-6">When (UTC)</th>
                  <th scope="col" className="px-4 py-2">Who</th>
                  <th scope="col" className="px-4 py-2">What</th>
                  <th scope="col" className="hidden px-4 py-2 md:table-cell sm:pr-6">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((entry) => (
                  <tr key={entry.id} data-testid="audit-row">
                    <td className="whitespace-nowrap px-4 py-2 text-slate-600 sm:px-6">{formatDateTime(entry.createdAt)}</td>
                    <td className="px-4 py-2">{entry.user?.email ?? "system"}</td>
                    <td className="px-4 py-2 font-medium">{ACTION_LABELS[entry.action] ?? entry.action}</td>
                    <td className="hidden max-w-md truncate px-4 py-2 text-xs text-slate-500 md:table-cell sm:pr-6" title={summary(entry.details)}>
                      {summary(entry.details)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {next ? (
          <div className="mt-4 flex justify-end border-t border-slate-200 pt-4">
            <Link className={buttonClass("secondary")} href={`/backoffice/audit-log?before=${next}`}>
              Older →
            </Link>
          </div>
        ) : null}
      </Card>
    </>
  );
}
