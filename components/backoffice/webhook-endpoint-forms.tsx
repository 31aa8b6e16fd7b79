"use client";
// Settings → Notifications → Webhook endpoints: add one (address, kinds, description, the password
// again), disable one, roll one's secret. A new secret is shown once, here.
import { useKeptFormAction } from "./use-kept-form-action";
import { Alert } from "@/components/ui/alert";
import { TextField } from "@/components/ui/field";
import type { ActionState, FormAction } from "@/lib/backoffice/action-result";
import { CopyField } from "./copy-field";
import { ConfirmAndSubmit, OverlapField, SubmitButton } from "./form-parts";

interface ShownSecret {
  secret: string;
  previousValidUntil: string | null;
}
type SecretAction = FormAction<ShownSecret>;
type PlainAction = FormAction;

function NewSecret({ state, testId }: { state: ActionState<ShownSecret>; testId: string }) {
  if (state.status !== "success" || !state.data) return null;
  return (
    <div className="space-y-2">
      <Alert tone="success">{state.message}</Alert>
      <CopyField label="Signing secret (shown once)" value={state.data.secret} testId={testId} />
      {state.data.previousValidUntil ? (
        <p className="text-xs text-slate-600">The previous secret also signs until {state.data.previousValidUntil.replace("T", " ").slice(0, 19)} UTC.</p>
      ) : null}
    </div>
  );
}

export function AddWebhookEndpointForm({
  action,
  kinds,
  mode,
  totpEnabled,
}: {
  action: SecretAction;
  kinds: { value: string; label: string }[];
  mode: string;
  totpEnabled: boolean;
}) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-4" noValidate aria-label="Add a webhook endpoint">
      <input type="hidden" name="mode" value={mode} />
      <TextField id="endpoint-url" name="url" label="Endpoint URL" type="url" placeholder="https://shop.example/webhooks" error={state.fieldErrors?.url} />
      <TextField id="endpoint-description" name="description" label="Description (optional)" maxLength={200} error={state.fieldErrors?.description} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Notifications it receives</legend>
        <p className="text-xs text-slate-500">None ticked: every kind.</p>
        <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {kinds.map((kind) => (
            <label key={kind.value} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="kinds" value={kind.value} className="h-4 w-4 rounded border-slate-300" />
              {kind.label}
            </label>
          ))}
        </div>
        {state.fieldErrors?.kinds ? <p className="mt-1 text-sm text-red-600">{state.fieldErrors.kinds}</p> : null}
      </fieldset>
      {state.status === "error" ? <Alert tone="error">{state.message}</Alert> : null}
      <NewSecret state={state} testId="new-endpoint-secret" />
      <ConfirmAndSubmit idPrefix="add-endpoint" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} pending={pending} pendingLabel="Adding…">
        Add endpoint
      </ConfirmAndSubmit>
    </form>
  );
}

export function DisableWebhookEndpointForm({ action, endpointId }: { action: PlainAction; endpointId: string }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="flex items-center gap-2">
      <input type="hidden" name="endpointId" value={endpointId} />
      <SubmitButton pending={pending} pendingLabel="Disabling…" variant="secondary">
        Disable
      </SubmitButton>
      {state.status === "error" ? <span className="text-sm text-red-600">{state.message}</span> : null}
    </form>
  );
}

export function RollWebhookEndpointSecretForm({
  action,
  endpointId,
  overlaps,
  totpEnabled,
}: {
  action: SecretAction;
  endpointId: string;
  overlaps: { seconds: number; label: string }[];
  totpEnabled: boolean;
}) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <div className="space-y-2">
      <form {...form} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="endpointId" value={endpointId} />
        <OverlapField id={`overlap-${endpointId}`} name="overlapSeconds" label="Old secret stops signing" periods={overlaps} defaultSeconds={overlaps[overlaps.length - 1]?.seconds ?? 0} />
        <ConfirmAndSubmit idPrefix={`roll-${endpointId}`} totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} compact pending={pending} pendingLabel="Rolling…" variant="secondary">
          Roll secret
        </ConfirmAndSubmit>
      </form>
      {state.status === "error" ? <Alert tone="error">{state.message}</Alert> : null}
      <NewSecret state={state} testId={`rolled-secret-${endpointId}`} />
    </div>
  );
}
