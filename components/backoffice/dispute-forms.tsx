"use client";
// A dispute's answers on its page (owners and developers): evidence files with an optional comment,
// a comment alone, and refute or accept (each asks to confirm first). The acquirer's rules (types,
// size, count) are shown by the file input; the server checks them again and says which file broke
// which rule. A file over the size limit is refused here before it is uploaded at all.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldFrame } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";
import type { FormAction } from "@/lib/backoffice/action-result";
import { FormMessage, SubmitButton } from "./form-parts";
import { useKeptFormAction } from "./use-kept-form-action";

const TEXTAREA = "block w-full rounded-md border-0 px-3 py-2 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600";

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
}

export function EvidenceForm({
  action,
  disputeId,
  rules,
  label,
}: {
  action: FormAction;
  disputeId: string;
  rules: { contentTypes: readonly string[]; maxBytes: number; maxFiles: number };
  /** The reporting API's name, for the hints. */
  label: string;
}) {
  const { state, pending, form } = useKeptFormAction(action);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem("files") as HTMLInputElement | null;
    const big = Array.from(input?.files ?? []).find((file) => file.size > rules.maxBytes);
    // Never uploaded: a body over the limit would be cut off before the server could say why.
    if (big) {
      event.preventDefault();
      setTooLarge(`${big.name}: ${big.size} bytes is over ${label}'s limit of ${rules.maxBytes} bytes (${megabytes(rules.maxBytes)}). Nothing was sent.`);
      return;
    }
    setTooLarge(null);
    form.onSubmit(event);
  }
  const fieldError = tooLarge ?? state.fieldErrors?.files;
  return (
    <form action={form.action} onSubmit={onSubmit} className="space-y-3" data-testid="evidence-form">
      <input type="hidden" name="disputeId" value={disputeId} />
      <FieldFrame
        id="evidence-files"
        label="Evidence files"
        hint={`${label} takes ${rules.contentTypes.join(", ")}, up to ${megabytes(rules.maxBytes)} a file, ${rules.maxFiles} file${rules.maxFiles === 1 ? "" : "s"} per dispute.`}
        error={fieldError}
      >
        <input
          id="evidence-files"
          name="files"
          type="file"
          accept={rules.contentTypes.join(",")}
          multiple={rules.maxFiles > 1}
          aria-invalid={fieldError ? true : undefined}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold"
        />
      </FieldFrame>
      <FieldFrame id="evidence-comment" label="Comment (optional)" hint="Sent to the acquirer with the files." error={state.fieldErrors?.comment}>
        <textarea id="evidence-comment" name="comment" rows={3} maxLength={5000} className={TEXTAREA} />
      </FieldFrame>
      <SubmitButton pending={pending} pendingLabel="Sending…">
        Upload evidence
      </SubmitButton>
      <FormMessage state={state} quietOnFieldErrors />
    </form>
  );
}

export function CommentForm({ action, disputeId }: { action: FormAction; disputeId: string }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-3" data-testid="comment-form">
      <input type="hidden" name="disputeId" value={disputeId} />
      <FieldFrame id="dispute-comment" label="Comment" hint="Sent to the acquirer on its own, and kept in the audit log." error={state.fieldErrors?.comment}>
        <textarea id="dispute-comment" name="comment" rows={3} maxLength={5000} className={TEXTAREA} />
      </FieldFrame>
      <SubmitButton pending={pending} pendingLabel="Sending…" variant="secondary">
        Send comment
      </SubmitButton>
      <FormMessage state={state} quietOnFieldErrors />
    </form>
  );
}

const DECISION_WORDS = {
  refute: { button: "Refute", confirm: "Refute this dispute: the evidence sent goes to the issuer. This cannot be undone." },
  accept: { button: "Accept", confirm: "Accept this dispute: you give up the amount. This cannot be undone." },
} as const;

export function DecisionForm({ action, disputeId, offered }: { action: FormAction; disputeId: string; offered: readonly string[] }) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  const [confirming, setConfirming] = useState<"refute" | "accept" | null>(null);
  return (
    <div className="space-y-3" data-testid="decision-form">
      {confirming ? (
        <form {...form} className="space-y-2 rounded-md bg-slate-50 p-3 ring-1 ring-inset ring-slate-200" aria-label={`Confirm ${confirming}`}>
          <input type="hidden" name="disputeId" value={disputeId} />
          <input type="hidden" name="decision" value={confirming} />
          <p className="text-sm text-slate-800">{DECISION_WORDS[confirming].confirm}</p>
          <div className="flex flex-wrap gap-2">
            <SubmitButton pending={pending} pendingLabel="Sending…" variant={confirming === "accept" ? "danger" : "primary"}>
              Confirm {confirming}
            </SubmitButton>
            <Button variant="ghost" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          {(["refute", "accept"] as const).map((decision) => (
            <Button key={decision} variant={decision === "accept" ? "secondary" : "primary"} disabled={pending} onClick={() => setConfirming(decision)}>
              {DECISION_WORDS[decision].button}…
            </Button>
          ))}
        </div>
      )}
      {offered.length < 2 ? (
        <p className="text-xs text-slate-500">The acquirer offers {offered.length ? `only: ${offered.join(", ")}` : "no answer right now"}; it is asked again when you answer.</p>
      ) : null}
      {state.status === "error" ? <Alert tone="error">{state.message}</Alert> : null}
      {state.status === "success" ? <Alert tone="success">{state.message}</Alert> : null}
    </div>
  );
}
