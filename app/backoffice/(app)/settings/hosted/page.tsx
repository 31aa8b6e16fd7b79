import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { listHostedIntegrations } from "@/lib/backoffice/queries/list-hosted-integrations";
import { CHALLENGE_PREFERENCE_LABELS } from "@/lib/validation/challenge-preference";
import { getMerchantSettings } from "@/lib/backoffice/queries/get-merchant-settings";
import { CheckoutOriginsForm } from "@/components/backoffice/checkout-origins-form";
import { saveCheckoutOriginsAction } from "./actions";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/components/backoffice/format";

export const metadata: Metadata = { title: "Hosted integrations" };
export const dynamic = "force-dynamic";

export default async function HostedIntegrationsPage() {
  const user = await requireUser();
  const integrations = await listHostedIntegrations({ merchantId: user.merchantId, mode: user.mode });
  const merchant = await getMerchantSettings({ merchantId: user.merchantId, mode: user.mode });
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
      <div className="mb-6">
        <Card
          title="Allowed checkout origins"
          description="The pages that may show your hosted fields, for every session; a hostedid with its own list uses that list instead. Without a list, any page that loads a session's dynamic.js can show its fields."
        >
          <CheckoutOriginsForm
            action={saveCheckoutOriginsAction}
            origins={merchant.allowedCheckoutOrigins}
            disabled={!roleCan(user.role, "settings:write")}
            totpEnabled={user.totpEnabled}
          />
        </Card>
      </div>
      <Card>
        {integrations.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">
            No hosted integrations yet. Sessions without hostedid use the account&apos;s URLs and the default field styling.
          </p>
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
                    {integration.allowedCheckoutOrigins.length > 0
                      ? ` · ${integration.allowedCheckoutOrigins.length} own checkout origin${integration.allowedCheckoutOrigins.length === 1 ? "" : "s"}`
                      : ""}
                    {integration.threeDsChallengePreference !== "no_preference"
                      ? ` · 3-D Secure: ${CHALLENGE_PREFERENCE_LABELS[integration.threeDsChallengePreference]}`
                      : ""}
                  </p>
                </div>
                <p className="max-w-full truncate text-xs text-slate-500">
                  {integration.completionNotificationUrl ?? integration.defaultNotificationUrl ?? "Account notification URLs"}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
