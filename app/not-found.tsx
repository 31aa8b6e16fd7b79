// The page for any address that matches nothing (and for notFound() outside the back office's
// shell): a real page with the 404 status Next gives it, and the ways back.
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md text-center">
        <span aria-hidden className="mx-auto grid h-10 w-10 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white">
          CPS
        </span>
        <p className="mt-6 text-sm font-semibold text-indigo-700">404</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600">There is no page at this address. It may have moved, or the link may be mistyped.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link className={buttonClass("primary")} href="/backoffice">
            Go to the back office
          </Link>
          <Link className={buttonClass("secondary")} href="/">
            Home page
          </Link>
        </div>
      </div>
    </main>
  );
}
