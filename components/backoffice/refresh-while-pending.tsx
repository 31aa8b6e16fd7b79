"use client";
// While an operation of the page's payment waits for its acquirer's answer (a capture or refund
// just asked for in the back office, or through the API), the page fetches itself again every few
// seconds, so the figures and the timeline change when the answer lands: no reload needed. The server
// renders this only while something is pending, so it stops by itself; and after a few minutes
// (an answer that takes that long waits for the reconciliation) it stops too.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function RefreshWhilePending({ intervalMs = 2_000, maxMs = 180_000 }: { intervalMs?: number; maxMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > maxMs) clearInterval(timer);
      else router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [router, intervalMs, maxMs]);
  return (
    <p className="text-xs text-slate-500" role="status" data-testid="waiting-for-acquirer">
      Waiting for the processor&apos;s answer: this page updates by itself.
    </p>
  );
}
