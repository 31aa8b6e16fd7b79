import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { Card } from "@/components/ui/card";
import { TwoFactorSection } from "@/components/backoffice/totp-forms";
import { ChangePasswordForm } from "@/components/backoffice/change-password-form";
import { SignOutButton } from "@/components/backoffice/sign-out-button";
import { changePasswordAction, confirmTotpAction, startTotpAction } from "../(app)/account/actions";

export const metadata: Metadata = { title: "Secure your account" };
export const dynamic = "force-dynamic";

// Where a signed-in user goes first when their account needs setting up (review 3, M8): a temporary
// password to replace (PCI DSS v4 8.3.5), then a second factor to turn on where it is required
// (8.4.2). Nothing else in the back office opens before (lib/auth/session.ts).
// It does not send a secured user away by itself: the recovery codes shown after enrolment must stay
// on screen until the user has stored them.
export default async function SecureAccountPage() {
  const user = await requireUser({ accountSetup: true });
  return (
    <main className="mx-auto max-w-2xl space-y-6 px-4 py-12">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Secure your account</h1>
        <p className="mt-1 text-sm text-slate-600">
          Signed in as {user.email}.{" "}
          {user.mustChangePassword
            ? "Your password is temporary: choose your own first."
            : user.mfaEnrolmentRequired
              ? "Every back-office user needs two-factor authentication here."
              : "Your account is secured."}
        </p>
      </div>
      {user.mustChangePassword ? (
        <Card title="Choose a new password" description={`At least ${MIN_PASSWORD_LENGTH} characters, not a common password. Your temporary password is the current one.`}>
          <ChangePasswordForm action={changePasswordAction} totpEnabled={user.totpEnabled} minLength={MIN_PASSWORD_LENGTH} />
        </Card>
      ) : user.mfaEnrolmentRequired || user.totpEnabled ? (
        // Rendered while the factor is on as well: confirming the enrolment renders this page again
        // as secured, and the card (with the recovery codes in it) must stay until they are stored.
        <Card
          title={user.totpEnabled ? "Two-factor authentication is on" : "Turn on two-factor authentication"}
          description="Scan the code with an authenticator app, confirm with a code, and store the recovery codes you are shown."
        >
          <TwoFactorSection
            totpEnabled={user.totpEnabled}
            start={startTotpAction}
            confirm={confirmTotpAction}
            whenOn={<p className="text-sm text-slate-700">You will be asked for a code from your app at every sign-in.</p>}
          />
        </Card>
      ) : null}
      <p className="text-sm text-slate-600">
        When this is done, <Link className="font-medium text-indigo-700 hover:underline" href="/backoffice">
          go to the back office
        </Link>.
      </p>
      <SignOutButton onDark={false} />
    </main>
  );
}
