import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { listHostedIntegrations } from "@/lib/backoffice/queries/list-hosted-integrations";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "Hosted integrations" };
export const dynamic = "force-dynamic";

export default async function HostedIntegrationsPage() {
  const user = await requireUser();
  const integrations = await listHostedIntegrations({ merchantId: user.merchantId });
  return (
    <>
      <PageHeader
        title="Hosted integrations"
        description="Each hostedid has its own notification URLs and hosted-field styling; pass it as hostedid in initdynamic."
        actions={
          roleCan(user.role, "settings:write") ? (
            <Link href="/backoffice/settings/hosted/new" className={buttonClass("primary")}>
              New integration
            </Link>
          ) : null
        }
      />
      <Card>
        {integrations.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">No hosted integrations yet. Sessions without hostedid use the account&apos;s URLs and the default field styling.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {integrations.map((integration) => (
              <li key={integration.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <Link href={`/backoffice/settings/hosted/${integration.id}`} className="font-medium text-indigo-700 hover:underline">
                    {integration.name}
                  </Link>
                  <p className="text-xs text-slate-500">
                    hostedid <span className="font-mono">{integration.hostedId}</span> · updated {formatDateTime(integration.updatedAt)} UTC
                  </p>
                </div>
                <p className="max-w-full truncate text-xs text-slate-500">{integration.completionNotificationUrl ?? integration.defaultNotificationUrl ?? "Account notification URLs"}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
