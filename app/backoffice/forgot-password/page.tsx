import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/backoffice/mail-link-forms";
import { requestPasswordResetAction } from "../mail-link-actions";
import { PublicCard } from "../mail-link-layout";

export const metadata: Metadata = { title: "Forgot password" };
export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  return (
    <PublicCard title="Forgot your password?">
      <p className="mb-4 text-sm text-slate-600">Enter your account&apos;s email address: we mail you a link to choose a new password.</p>
      <ForgotPasswordForm action={requestPasswordResetAction} />
    </PublicCard>
  );
}
