"use client";
// Create / roll / revoke forms of Settings → API-key. The full key appears once, right after it is
// made, with a warning that it will not be shown again.
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { ActionState, FormAction } from "@/lib/backoffice/action-result";
import type { NewKey } from "@/lib/backoffice/action-data";
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, DEFAULT_NEW_KEY_SCOPES } from "@/lib/api-keys/api-key-scopes";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { CopyField } from "./copy-field";
import { useKeptFormAction } from "./use-kept-form-action";
import { ConfirmAndSubmit, OverlapField, SubmitButton } from "./form-parts";

type KeyAction = FormAction<NewKey>;
type PlainAction = FormAction;

function NewKeyNotice({ state }: { state: ActionState<NewKey> }) {
  if (state.status !== "success" || !state.data) return null;
  return (
    <div className="space-y-3 rounded-md bg-emerald-50 p-4 ring-1 ring-emerald-200" role="status">
      <p className="text-sm font-semibold text-emerald-900">{state.message} Copy the key now: it is shown only this once.</p>
      <CopyField label={`API key “${state.data.name}”`} value={state.data.apiKey} testId="new-api-key" />
      {state.data.oldKeyValidUntil ? (
        <p className="text-sm text-emerald-900">
          The old key keeps working until <time dateTime={state.data.oldKeyValidUntil}>{state.data.oldKeyValidUntil.replace("T", " ").slice(0, 19)} UTC</time>.
        </p>
      ) : null}
    </div>
  );
}

export function CreateKeyForm({ action, totpEnabled }: { action: KeyAction; totpEnabled: boolean }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <div className="space-y-4">
      <form {...form} className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start" noValidate>
        <TextField id="name" label="Key name" placeholder="e.g. Web shop production" className="flex-1" error={state.fieldErrors?.name} maxLength={80} />
        {/* What the key may do (review 3, M7): payouts only when the system that holds it pays out. */}
        <fieldset className="w-full space-y-1 sm:order-last" aria-describedby="scopes-hint">
          <legend className="text-sm font-medium text-slate-900">Scopes</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="scopes" value={scope} defaultChecked={DEFAULT_NEW_KEY_SCOPES.includes(scope)} />
              <span className="font-medium">{API_KEY_SCOPE_LABELS[scope].label}</span>
              <span className="text-slate-500">({API_KEY_SCOPE_LABELS[scope].routes})</span>
            </label>
          ))}
          <p id="scopes-hint" className={state.fieldErrors?.scopes ? "text-xs text-red-700" : "text-xs text-slate-500"}>
            {state.fieldErrors?.scopes ?? "A key can do only what its scopes allow. Leave payouts off unless this system pays out."}
          </p>
        </fieldset>
        <ConfirmAndSubmit idPrefix="create-key" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} pending={pending} pendingLabel="Creating…" className="sm:mt-6">
          Create key
        </ConfirmAndSubmit>
      </form>
      {state.status === "error" && !state.fieldErrors ? <Alert tone="error">{state.message}</Alert> : null}
      <NewKeyNotice state={state} />
    </div>
  );
}

export function RollKeyForm({
  action,
  apiKeyId,
  keyName,
  gracePeriods,
  totpEnabled,
}: {
  action: KeyAction;
  apiKeyId: string;
  keyName: string;
  gracePeriods: { seconds: number; label: string }[];
  totpEnabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const { state, pending, form } = useKeptFormAction(action);
  if (!open && state.status !== "success") {
    return (
      <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Roll key ${keyName}`}>
        Roll
      </Button>
    );
  }
  return (
    <div className="w-full space-y-3">
      {state.status !== "success" ? (
        <form {...form} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <input type="hidden" name="apiKeyId" value={apiKeyId} />
          <OverlapField id={`grace-${apiKeyId}`} name="graceSeconds" label="Old key stops working" periods={gracePeriods} defaultSeconds={24 * 60 * 60} error={state.fieldErrors?.graceSeconds} />
          <ConfirmIdentityFields idPrefix={`roll-${apiKeyId}`} totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
          <div className="flex gap-2">
            <SubmitButton pending={pending} pendingLabel="Rolling…">
              Roll key
            </SubmitButton>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {state.status === "error" && !state.fieldErrors ? <Alert tone="error">{state.message}</Alert> : null}
      <NewKeyNotice state={state} />
    </div>
  );
}

export function RevokeKeyForm({ action, apiKeyId, keyName }: { action: PlainAction; apiKeyId: string; keyName: string }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  return (
    <form
      action={formAction}
      onSubmit={(event) => {
        if (!window.confirm(`Revoke “${keyName}”? Requests with this key are refused at once.`)) event.preventDefault();
      }}
    >
      <input type="hidden" name="apiKeyId" value={apiKeyId} />
      <SubmitButton pending={pending} pendingLabel="Revoking…" variant="danger" aria-label={`Revoke key ${keyName}`}>
        Revoke
      </SubmitButton>
      {state.status === "error" ? <p className="mt-1 text-xs text-red-700" role="alert">{state.message}</p> : null}
    </form>
  );
}
