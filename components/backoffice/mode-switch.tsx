"use client";
// The mode switch and the test-mode banner on every back-office page: test mode is marked in a
// colour no live page has, so nobody takes test figures for real ones (as Stripe's orange bar).
import { usePathname } from "next/navigation";
import type { Mode } from "@/lib/mode";

export function ModeSwitch({ mode, action }: { mode: Mode; action: (formData: FormData) => Promise<void> }) {
  const pathname = usePathname();
  const other: Mode = mode === "test" ? "live" : "test";
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="mode" value={other} />
      <input type="hidden" name="back" value={pathname} />
      <span className="text-xs text-slate-400">
        Viewing <strong className={mode === "test" ? "text-amber-300" : "text-emerald-300"}>{mode === "test" ? "test data" : "live data"}</strong>
      </span>
      <button
        type="submit"
        data-testid="mode-switch"
        className="rounded-md px-2 py-1 text-xs font-medium text-slate-200 ring-1 ring-slate-600 hover:bg-slate-800"
      >
        Switch to {other} mode
      </button>
    </form>
  );
}

export function TestModeBanner({ mode }: { mode: Mode }) {
  if (mode !== "test") return null;
  return (
    <div role="status" data-testid="test-mode-banner" className="bg-amber-400 px-4 py-1.5 text-center text-sm font-medium text-amber-950">
      Test mode: you are looking at test data. Test payments use test cards and the sandboxes or your test acquirer accounts; no money moves.
    </div>
  );
}
