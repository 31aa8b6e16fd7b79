"use client";
// An owner records the acquirer's answer to an operation whose outcome is unknown and that waits for
// an operator (docs/operations.md, "Unknown outcomes"): what the acquirer's report says, its
// reference, what was checked, and the owner's password (step-up). Shown in the payment page's
// "Operator needed" box.
import { startTransition, useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { SubmitButton } from "./form-parts";

type Action = FormAction;

export function SettleOperationForm({
  action,
  operationId,
  operationType,
  totpEnabled,
}: {
  action: Action;
  operationId: string;
  operationType: string;
  totpEnabled: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  // What the owner writes down of the settlement: kept with it and in the audit log.
  const note = (name: "reference" | "reason", label: string, hint: string) => (
    <TextField id={`settle-${operationId}-${name}`} name={name} label={label} hint={hint} error={state.fieldErrors?.[name]} />
  );
  return (
    <form
      className="mt-2 space-y-2 rounded-md bg-white p-3 ring-1 ring-red-200"
      aria-label={`Settle ${operationType} ${operationId}`}
      data-testid="settle-operation"
      onSubmit={(event) => {
        event.preventDefault();
        const formData = new FormData(event.currentTarget);
        startTransition(() => formAction(formData));
      }}
    >
      <input type="hidden" name="operationId" value={operationId} />
      <fieldset className="space-y-1 text-sm">
        <legend className="font-medium text-slate-900">What does the acquirer&apos;s report say?</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="outcome" value="approved" required /> It performed this {operationType} (approved)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="outcome" value="declined" /> It did not perform it (declined / never received)
        </label>
        {state.fieldErrors?.outcome ? <p className="text-xs text-red-700">{state.fieldErrors.outcome}</p> : null}
      </fieldset>
      {note("reference", "The acquirer's transaction id", "Required when it performed it: later operations refer to it.")}
      {note("reason", "What you checked", "Kept in the audit log, e.g. the acquirer's report and its date.")}
      <ConfirmIdentityFields idPrefix={`settle-${operationId}`} totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      {state.status === "error" && state.message ? <Alert tone="error">{state.message}</Alert> : null}
      {state.status === "success" && state.message ? <Alert tone="success">{state.message}</Alert> : null}
      <SubmitButton pending={pending} pendingLabel="Settling…" variant="danger">
        Settle this operation
      </SubmitButton>
    </form>
  );
}
