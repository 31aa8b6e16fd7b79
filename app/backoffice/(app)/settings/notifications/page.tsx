import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { getMerchantSettings } from "@/lib/backoffice/queries/get-merchant-settings";
import { NOTIFICATION_URL_FIELDS, NOTIFICATION_URL_LABELS } from "@/lib/backoffice/notification-url";
import { Card, PageHeader } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { NotificationUrlsForm, TestNotificationForm } from "@/components/backoffice/notification-url-forms";
import { saveNotificationUrlsAction, sendTestNotificationAction } from "./actions";

export const metadata: Metadata = { title: "Notification URLs" };
export const dynamic = "force-dynamic";

export default async function NotificationUrlsPage() {
  const user = await requireUser();
  const merchant = await getMerchantSettings({ merchantId: user.merchantId, mode: user.mode });
  const canWrite = roleCan(user.role, "settings:write");
  const fields = NOTIFICATION_URL_FIELDS.map((name) => ({ name, ...NOTIFICATION_URL_LABELS[name], value: merchant[name] ?? "" }));
  return (
    <>
      <PageHeader
        title="Notification URLs"
        description={`Where the service POSTs results of ${user.mode} payments to your servers (each mode has its own addresses; switch modes to see the other's). A request's own notificationurl, then a hosted integration's URLs, take precedence.`}
      />
      <div className="space-y-6">
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
      </div>
    </>
  );
}
