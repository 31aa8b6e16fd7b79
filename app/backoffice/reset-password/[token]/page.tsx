import type { Metadata } from "next";
import { db } from "@/lib/db";
import { peekUserToken } from "@/lib/users/user-tokens";
import { Alert } from "@/components/ui/alert";
import { ChoosePasswordForm } from "@/components/backoffice/mail-link-forms";
import { resetPasswordAction } from "../../mail-link-actions";
import { PublicCard } from "../../mail-link-layout";

export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const good = await db().$transaction((tx) => peekUserToken(tx, { token, kind: "password_reset" }));
  return (
    <PublicCard title="Choose a new password">
      {good ? (
        <ChoosePasswordForm action={resetPasswordAction} token={token} />
      ) : (
        <Alert tone="error">This link has expired or was used already. Ask for a new one on the sign-in page.</Alert>
      )}
    </PublicCard>
  );
}
