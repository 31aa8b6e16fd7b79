import Link from "next/link";
import type { ReactNode } from "react";

/** The frame of the pages reached without signing in: the sign-in page and the mailed links' pages. */
export function PublicCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <span aria-hidden className="mx-auto grid h-10 w-10 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white">
            CPS
          </span>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight">{title}</h1>
          <p className="mt-1 text-sm text-slate-600">Card Payment Service</p>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">{children}</div>
        <p className="mt-4 text-center text-sm">
          {footer ?? (
            <Link href="/backoffice/sign-in" className="text-indigo-700 hover:underline">
              Back to sign in
            </Link>
          )}
        </p>
      </div>
    </main>
  );
}
