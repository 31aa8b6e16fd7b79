"use client";
// The reporting API of an acquirer account (disputes and settlements, issue 40), on Settings →
// Acquirer accounts: its credentials (write-only: only their fingerprint shows; the form replaces
// them whole and asks for the password again) and "Test reporting API".
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { CredentialField, ConnectionCheck } from "@/lib/acquirers/contract";
import type { ActionState, FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { FormMessage, SubmitButton } from "./form-parts";
import { useKeptFormAction } from "./use-kept-form-action";

export function ReportingCredentialsForm({
  action,
  accountId,
  label,
  fields,
  hasCredentials,
  totpEnabled,
}: {
  action: FormAction;
  accountId: string;
  /** The reporting API's name. */
  label: string;
  fields: readonly CredentialField[];
  hasCredentials: boolean;
  totpEnabled: boolean;
}) {
  const { state, pending, form } = useKeptFormAction(action);
  // The answer shown when the form was opened: a new success closes it (the message with the new
  // fingerprint stays), a refusal keeps it open to be fixed.
  const [openedWith, setOpenedWith] = useState<ActionState | null>(null);
  const open = openedWith !== null && (state === openedWith || state.status !== "success");
  const setOpen = (value: boolean) => setOpenedWith(value ? state : null);
  if (!open) {
    return (
      <div className="space-y-2">
        <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`${hasCredentials ? "Replace" : "Set"} ${label} credentials`}>
          {hasCredentials ? "Replace reporting credentials…" : "Set reporting credentials…"}
        </Button>
        <FormMessage state={state} />
      </div>
    );
  }
  const prefix = `reporting-${accountId}`;
  return (
    <form {...form} className="space-y-4" noValidate data-testid="reporting-credentials-form">
      <input type="hidden" name="accountId" value={accountId} />
      <fieldset className="grid gap-3 md:grid-cols-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">{label} credentials{hasCredentials ? " (replace the current ones whole)" : ""}</legend>
        {fields.map((field) => (
          <TextField
            key={field.key}
            id={`${prefix}-${field.key}`}
            name={`credential.${field.key}`}
            label={`${field.label}${field.optional ? " (optional)" : ""}`}
            hint={field.hint}
            error={state.fieldErrors?.[`credential.${field.key}`]}
            type={field.secret ? "password" : "text"}
            autoComplete="off"
            spellCheck={false}
          />
        ))}
      </fieldset>
      <div className="grid gap-3 md:grid-cols-2">
        <ConfirmIdentityFields idPrefix={prefix} totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      </div>
      <div className="flex gap-2">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save reporting credentials
        </SubmitButton>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
      <FormMessage state={state} quietOnFieldErrors />
    </form>
  );
}

export function TestReportingForm({ action, accountId }: { action: FormAction<ConnectionCheck>; accountId: string }) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  const result = state.data;
  return (
    <form {...form} className="space-y-2">
      <input type="hidden" name="accountId" value={accountId} />
      <SubmitButton pending={pending} pendingLabel="Testing…" variant="secondary">
        Test reporting API
      </SubmitButton>
      {state.status === "error" ? <Alert tone="error">{state.message}</Alert> : null}
      {result ? (
        <Alert tone={result.ok ? "success" : "error"} title={result.ok ? "Reporting API connected" : "Reporting API not connected"}>
          <p data-testid="reporting-test-result">{result.message}</p>
        </Alert>
      ) : null}
    </form>
  );
}
