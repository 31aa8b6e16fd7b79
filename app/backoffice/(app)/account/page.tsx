import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { Card, DescriptionList, CardPage } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { DisableTotp, TwoFactorSection } from "@/components/backoffice/totp-forms";
import { ChangePasswordForm } from "@/components/backoffice/change-password-form";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { changePasswordAction, confirmTotpAction, disableTotpAction, startTotpAction } from "./actions";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const user = await requireUser();
  return (
    <CardPage title="Your account">
      <Card title="Profile">
        <DescriptionList
          items={[
            { term: "Name", value: user.name },
            { term: "Email", value: user.email },
            { term: "Role", value: ROLE_LABELS[user.role] },
            { term: "Merchant", value: `${user.merchantName} (${user.merchantId})` },
          ]}
        />
      </Card>
      <Card title="Password" description="Changing it signs you out everywhere else.">
        <ChangePasswordForm action={changePasswordAction} totpEnabled={user.totpEnabled} minLength={MIN_PASSWORD_LENGTH} />
      </Card>
      <Card
        title="Two-factor authentication"
        description="A time-based code from an authenticator app, asked for at every sign-in after your password."
        actions={user.totpEnabled ? <Badge tone="green">On</Badge> : <Badge tone="amber">Off</Badge>}
      >
        <TwoFactorSection totpEnabled={user.totpEnabled} start={startTotpAction} confirm={confirmTotpAction} whenOn={<DisableTotp action={disableTotpAction} />} />
      </Card>
    </CardPage>
  );
}
