import type { Metadata } from "next";
import { db } from "@/lib/db";
import { peekUserToken } from "@/lib/users/user-tokens";
import { Alert } from "@/components/ui/alert";
import { ChoosePasswordForm } from "@/components/backoffice/mail-link-forms";
import { acceptInvitationAction } from "../../mail-link-actions";
import { PublicCard } from "../../mail-link-layout";

export const metadata: Metadata = { title: "Join the back office", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await db().$transaction((tx) => peekUserToken(tx, { token, kind: "invitation" }));
  return (
    <PublicCard title="Join the back office">
      {invitation ? (
        <>
          <p className="mb-4 text-sm text-slate-600">
            You are invited as <strong>{invitation.email}</strong>. Choose your name and a password.
          </p>
          <ChoosePasswordForm action={acceptInvitationAction} token={token} withName />
        </>
      ) : (
        <Alert tone="error">This invitation has expired or was used already. Ask the person who invited you for a new one.</Alert>
      )}
    </PublicCard>
  );
}
