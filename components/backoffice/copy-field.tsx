"use client";
import { useState } from "react";

/** A read-only value with a copy button (keys, ids, secrets). */
export function CopyField({ label, value, secret = false, testId }: { label: string; value: string; secret?: boolean; testId?: string }) {
  const [copied, setCopied] = useState(false);
  const [revealed, setRevealed] = useState(!secret);
  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="min-w-0 max-w-full break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900">
          {revealed ? value : "•".repeat(Math.min(value.length, 32))}
        </code>
        {secret ? (
          <button type="button" className="text-sm font-medium text-indigo-700 hover:underline" onClick={() => setRevealed((shown) => !shown)}>
            {revealed ? "Hide" : "Reveal"}
          </button>
        ) : null}
        <button
          type="button"
          className="text-sm font-medium text-indigo-700 hover:underline"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            });
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
