import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { getMerchantSettings } from "@/lib/backoffice/queries/get-merchant-settings";
import { NOTIFICATION_URL_FIELDS, NOTIFICATION_URL_LABELS } from "@/lib/backoffice/notification-url";
import { Card, CardPage } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { NotificationUrlsForm, TestNotificationForm } from "@/components/backoffice/notification-url-forms";
import { AddWebhookEndpointForm, DisableWebhookEndpointForm, RollWebhookEndpointSecretForm } from "@/components/backoffice/webhook-endpoint-forms";
import { SUBSCRIBABLE_KINDS, listWebhookEndpoints } from "@/lib/notifications/webhook-endpoints";
import { SIGNING_SECRET_OVERLAPS } from "@/lib/backoffice/actions/roll-signing-secret";
import {
  addWebhookEndpointAction,
  disableWebhookEndpointAction,
  rollWebhookEndpointSecretAction,
  saveNotificationUrlsAction,
  sendTestNotificationAction,
} from "./actions";

const KIND_LABELS: Record<string, string> = {
  completion: "Payment completion",
  mit: "MIT result",
  capture: "Capture",
  refund: "Refund",
  void: "Void",
  payout: "Payout",
  payment_details: "Payment details",
  lifecycle: "Life-cycle",
};

export const metadata: Metadata = { title: "Notification URLs" };
export const dynamic = "force-dynamic";

export default async function NotificationUrlsPage() {
  const user = await requireUser();
  const [merchant, endpoints] = await Promise.all([
    getMerchantSettings({ merchantId: user.merchantId, mode: user.mode }),
    listWebhookEndpoints({ merchantId: user.merchantId, mode: user.mode }),
  ]);
  const canRoll = roleCan(user.role, "secrets:manage");
  const canWrite = roleCan(user.role, "settings:write");
  const fields = NOTIFICATION_URL_FIELDS.map((name) => ({ name, ...NOTIFICATION_URL_LABELS[name], value: merchant[name] ?? "" }));
  return (
    <CardPage title="Notification URLs" description={`Where the service POSTs results of ${user.mode} payments to your servers (each mode has its own addresses; switch modes to see the other's). A request's own notificationurl, then a hosted integration's URLs, take precedence.`}>
      {!canWrite ? <Alert tone="info">Your role can see these settings but not change them.</Alert> : null}
      <Card title={user.mode === "test" ? "Test mode addresses" : "Live mode addresses"}>
        <NotificationUrlsForm
          action={saveNotificationUrlsAction}
          fields={fields}
          disabled={!canWrite}
          totpEnabled={user.totpEnabled}
          extraHidden={{ mode: user.mode }}
        />
      </Card>
      {canWrite ? (
        <Card
          title="Send a test notification"
          description="One signed POST, not retried; shows what your server answered. Only HTTP 200 acknowledges."
        >
          <TestNotificationForm
            action={sendTestNotificationAction}
            urls={fields.filter((field) => field.value).map((field) => ({ label: field.label, value: field.value }))}
          />
        </Card>
      ) : null}
      <Card
        title="Webhook endpoints"
        description="More receivers, each with its own signing secret: every notification of the kinds an endpoint subscribes to is copied to it (its own webhook-id and retries). The addresses above still receive every notification."
      >
        {endpoints.length === 0 ? (
          <p className="text-sm text-slate-600">No endpoints in {user.mode} mode.</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="Webhook endpoints">
            {endpoints.map((endpoint) => (
              <li key={endpoint.id} className="space-y-2 py-4" data-testid="webhook-endpoint-row">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="break-all font-mono text-sm text-slate-900">{endpoint.url}</span>
                  <span className={endpoint.enabled ? "text-xs font-medium text-emerald-700" : "text-xs font-medium text-slate-500"}>
                    {endpoint.enabled ? "Enabled" : "Disabled"}
                  </span>
                </div>
                <p className="text-xs text-slate-600">
                  {endpoint.kinds.length > 0 ? endpoint.kinds.map((kind) => KIND_LABELS[kind] ?? kind).join(", ") : "Every kind"}
                  {endpoint.description ? ` · ${endpoint.description}` : ""}
                </p>
                {endpoint.enabled && canWrite ? (
                  <div className="flex flex-col gap-3 md:flex-row md:items-end">
                    {canRoll ? (
                      <RollWebhookEndpointSecretForm
                        action={rollWebhookEndpointSecretAction}
                        endpointId={endpoint.id}
                        overlaps={[...SIGNING_SECRET_OVERLAPS]}
                        totpEnabled={user.totpEnabled}
                      />
                    ) : null}
                    <DisableWebhookEndpointForm action={disableWebhookEndpointAction} endpointId={endpoint.id} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {canWrite ? (
          <div className="mt-6 border-t border-slate-200 pt-6">
            <AddWebhookEndpointForm
              action={addWebhookEndpointAction}
              kinds={SUBSCRIBABLE_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] ?? kind }))}
              mode={user.mode}
              totpEnabled={user.totpEnabled}
            />
          </div>
        ) : null}
      </Card>
    </CardPage>
  );
}
