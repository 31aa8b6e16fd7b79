import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { roleCan } from "@/lib/auth/roles";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { ROLL_GRACE_PERIODS } from "@/lib/api-keys/roll-api-key";
import { getMerchantSettings } from "@/lib/backoffice/queries/get-merchant-settings";
import { Card, CardPage } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import { CopyField } from "@/components/backoffice/copy-field";
import { RevealSecretField } from "@/components/backoffice/reveal-secret-field";
import { CreateKeyForm, RevokeKeyForm, RollKeyForm } from "@/components/backoffice/api-key-forms";
import { StateBadge } from "@/components/backoffice/status-badge";
import { formatDateTime, formatRelative } from "@/components/backoffice/format";
import { SIGNING_SECRET_OVERLAPS } from "@/lib/backoffice/actions/roll-signing-secret";
import { createKeyAction, revealSigningSecretAction, revokeKeyAction, rollKeyAction, rollSigningSecretAction } from "./actions";

export const metadata: Metadata = { title: "API-key" };
export const dynamic = "force-dynamic";

// Settings → API-key (spec section 5): the keys sent as "Authorization: Basic <API_KEY>".
export default async function ApiKeyPage() {
  const user = await requireUser();
  const [keys, merchant] = await Promise.all([
    listApiKeys({ merchantId: user.merchantId, mode: user.mode }),
    getMerchantSettings({ merchantId: user.merchantId, mode: user.mode }),
  ]);
  const canWrite = roleCan(user.role, "keys:write");
  return (
    <CardPage title="API-key" description="Keys for your servers' calls to the merchant API, sent as “Authorization: Basic <API_KEY>”.">
      <Card title="Account" description="Identify your account in API calls and verify the notifications we send you.">
        <div className="grid gap-4 md:grid-cols-2">
          <CopyField label="Merchant id (merchantid)" value={merchant.id} testId="merchant-id" />
          {/* The secret lets its holder forge notifications to the merchant: owners only, after their password,
              each reveal and roll audited (never in the page's HTML). */}
          {roleCan(user.role, "secrets:manage") ? (
            <RevealSecretField
              label={`Notification signing secret (${user.mode} mode)`}
              reveal={revealSigningSecretAction}
              roll={rollSigningSecretAction}
              overlaps={[...SIGNING_SECRET_OVERLAPS]}
              totpEnabled={user.totpEnabled}
              testId="notification-secret"
            />
          ) : (
            <div>
              <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Notification signing secret</p>
              <p className="mt-1 text-sm text-slate-600">Only owners can reveal or roll it.</p>
            </div>
          )}
        </div>
        <p className="mt-3 text-xs text-slate-500">
          Every notification carries webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks, HMAC-SHA256 with the
          secret of its mode). This secret signs {user.mode} notifications only; switch modes to see or roll the {user.mode === "test" ? "live" : "test"}{" "}
          one. Check the signed body&apos;s <code>mode</code> too.
        </p>
      </Card>

      {canWrite ? (
        <Card
          title={user.mode === "test" ? "Create a test key" : "Create a live key"}
          description={`Use one key per system, so you can roll or revoke one without touching the others. ${
            user.mode === "test"
              ? "A test key (cps_test_…) sees and makes test data only: sandboxes and test cards, no money moves."
              : "A live key (cps_live_…) sees and makes live data only: real cards and real money."
          }`}
        >
          <CreateKeyForm action={createKeyAction} totpEnabled={user.totpEnabled} />
        </Card>
      ) : (
        <Alert tone="info">Your role can see keys but not change them. Ask an owner or developer.</Alert>
      )}

      <Card
        title={user.mode === "test" ? "Test keys" : "Live keys"}
        description="The full key is shown only when it is created; afterwards only its first characters. Switch modes to see the other mode's keys."
      >
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">No keys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="API keys">
            {keys.map((key) => (
              <li
                key={key.id}
                className="flex flex-col gap-3 py-4 md:flex-row md:items-center md:justify-between"
                data-testid="api-key-row"
              >
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900">{key.name}</span>
                    <StateBadge state={key.state} />
                  </div>
                  <p className="font-mono text-sm text-slate-700">{key.prefix}…</p>
                  <p className="text-xs text-slate-600" data-testid="api-key-scopes">
                    Scopes: {key.scopes.join(", ")}
                  </p>
                  <p className="text-xs text-slate-500">
                    Created {formatDateTime(key.createdAt)} UTC · Last used{" "}
                    {key.lastUsedAt ? `${formatRelative(key.lastUsedAt)} (${formatDateTime(key.lastUsedAt)} UTC)` : "never"}
                    {key.expiresAt ? ` · ${key.state === "expired" ? "Expired" : "Expires"} ${formatDateTime(key.expiresAt)} UTC` : ""}
                    {key.revokedAt ? ` · Revoked ${formatDateTime(key.revokedAt)} UTC` : ""}
                  </p>
                </div>
                {canWrite && (key.state === "active" || key.state === "expiring") ? (
                  <div className="flex flex-wrap items-start gap-2 md:justify-end">
                    <RollKeyForm
                      action={rollKeyAction}
                      apiKeyId={key.id}
                      keyName={key.name}
                      gracePeriods={[...ROLL_GRACE_PERIODS]}
                      totpEnabled={user.totpEnabled}
                    />
                    <RevokeKeyForm action={revokeKeyAction} apiKeyId={key.id} keyName={key.name} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </CardPage>
  );
}
