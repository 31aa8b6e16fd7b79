import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";
import { SignInForm } from "@/components/backoffice/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site paths under /backoffice: never an open redirect. */
function safeCallback(value: string | string[] | undefined): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (!candidate) return "/backoffice";
  try {
    const url = new URL(candidate, "http://local");
    if ((url.origin === "http://local" || candidate.startsWith("http")) && url.pathname.startsWith("/backoffice") && !url.pathname.startsWith("/backoffice/sign-in")) {
      return `${url.pathname}${url.search}`;
    }
  } catch {
    // fall through
  }
  return "/backoffice";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
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
      </div>
    </main>
  );
}
