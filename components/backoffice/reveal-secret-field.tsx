"use client";
// A secret the page does not hold until someone asks: "Reveal" (or "Copy") fetches it from the
// server, which records the reveal in the audit log; "Hide" forgets it again.
import { useState, useTransition } from "react";
import type { ActionState } from "@/lib/backoffice/action-result";

type RevealAction = () => Promise<ActionState<{ secret: string }>>;

export function RevealSecretField({ label, reveal, testId }: { label: string; reveal: RevealAction; testId?: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [pending, startTransition] = useTransition();

  function fetchSecret(then?: (value: string) => void) {
    startTransition(async () => {
      const result = await reveal();
      if (result.status !== "success" || !result.data) {
        setError(result.message ?? "Could not reveal the secret.");
        return;
      }
      setError(null);
      setSecret(result.data.secret);
      then?.(result.data.secret);
    });
  }

  function copy(value: string) {
    void navigator.clipboard?.writeText(value).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    });
  }

  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="min-w-0 max-w-full break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900">
          {secret ?? "•".repeat(32)}
        </code>
        <button type="button" className="text-sm font-medium text-indigo-700 hover:underline disabled:opacity-50" disabled={pending} onClick={() => (secret ? setSecret(null) : fetchSecret())}>
          {secret ? "Hide" : pending ? "Revealing…" : "Reveal"}
        </button>
        <button type="button" className="text-sm font-medium text-indigo-700 hover:underline disabled:opacity-50" disabled={pending} onClick={() => (secret ? copy(secret) : fetchSecret(copy))}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : (
        <p className="mt-1 text-xs text-slate-500">Each reveal is recorded in the audit log.</p>
      )}
    </div>
  );
}
