import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";
import { SignInForm } from "@/components/backoffice/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/safe-callback-path";
import { PublicCard } from "../mail-link-layout";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  return (
    <PublicCard
      title="Sign in to the back office"
      footer={
        <Link href="/backoffice/forgot-password" className="text-indigo-700 hover:underline">
          Forgot your password?
        </Link>
      }
    >
      <SignInForm callbackUrl={callbackUrl} />
    </PublicCard>
  );
}
