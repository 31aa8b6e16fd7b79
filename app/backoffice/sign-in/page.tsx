import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";
import { SignInForm } from "@/components/backoffice/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/safe-callback-path";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <span aria-hidden className="mx-auto grid h-10 w-10 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white">
            CPS
          </span>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight">Sign in to the back office</h1>
          <p className="mt-1 text-sm text-slate-600">Card Payment Service</p>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <SignInForm callbackUrl={callbackUrl} />
        </div>
        <p className="mt-4 text-center text-sm">
          <Link href="/backoffice/forgot-password" className="text-indigo-700 hover:underline">
            Forgot your password?
          </Link>
        </p>
      </div>
    </main>
  );
}
