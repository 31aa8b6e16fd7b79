"use client";
// Any back-office page that fails to render (for example when the service is overloaded and finds no
// database connection in time) shows this instead of the framework's error page: what happened in
// words for people, a way to try again, and the reference the server log carries. The error's
// message is not shown (in production Next.js does not send it; it may name internals).
import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export default function BackofficeError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-xl p-6">
      <Card>
        <div className="py-8 text-center">
          <h1 className="text-xl font-semibold tracking-tight">This page could not be loaded</h1>
          <p className="mt-2 text-sm text-slate-600">
            The service may be busy right now. Nothing on this page was changed: try again in a moment.
          </p>
          {error.digest ? <p className="mt-2 text-xs text-slate-500">Reference: {error.digest}</p> : null}
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Button onClick={() => reset()}>Try again</Button>
            <Link className={buttonClass("secondary")} href="/backoffice">
              Overview
            </Link>
          </div>
        </div>
      </Card>
    </main>
  );
}
