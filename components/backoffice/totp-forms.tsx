"use client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { ActionState } from "@/lib/backoffice/action-result";
import type { Enrolment } from "@/lib/backoffice/action-data";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { useKeptFormAction } from "./use-kept-form-action";

type StartAction = (previous: ActionState<Enrolment>, formData: FormData) => Promise<ActionState<Enrolment>>;
type CodeAction = (previous: ActionState<{ recoveryCodes?: string[] }>, formData: FormData) => Promise<ActionState<{ recoveryCodes?: string[] }>>;

function CodeForm({ action, label, submit, variant = "primary", askPassword = false }: { action: CodeAction; label: string; submit: string; variant?: "primary" | "danger"; askPassword?: boolean }) {
  const { state, pending, form } = useKeptFormAction(action);
  if (state.status === "success") {
    return (
      <div className="space-y-3">
        <Alert tone="success">{state.message}</Alert>
        {state.data?.recoveryCodes ? (
          <div className="space-y-2 rounded-md bg-amber-50 p-4 ring-1 ring-amber-200">
            <p className="text-sm font-semibold text-amber-900">Recovery codes: each signs you in once without your authenticator. Store them now: they are shown only this once.</p>
            <ul className="grid grid-cols-2 gap-1 font-mono text-sm text-slate-900" data-testid="recovery-codes">
              {state.data.recoveryCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    );
  }
  return (
    <form {...form} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
      {askPassword ? <ConfirmIdentityFields idPrefix={`totp-${variant}`} totpEnabled={false} fieldErrors={state.fieldErrors} /> : null}
      <TextField id={`totp-code-${variant}`} name="code" label={label} inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={state.fieldErrors?.code ?? state.fieldErrors?.currentCode ?? (state.status === "error" && !state.fieldErrors?.currentPassword ? state.message : undefined)} />
      <Button type="submit" variant={variant} className="sm:mt-6" disabled={pending}>
        {pending ? "Checking…" : submit}
      </Button>
    </form>
  );
}

export function EnableTotp({ start, confirm }: { start: StartAction; confirm: CodeAction }) {
  const { state, pending, form } = useKeptFormAction(start);
  if (state.status !== "success" || !state.data) {
    return (
      <form {...form} className="space-y-3" noValidate>
        {state.status === "error" && !state.fieldErrors ? <Alert tone="error">{state.message}</Alert> : null}
        <ConfirmIdentityFields idPrefix="totp-start" totpEnabled={false} fieldErrors={state.fieldErrors} />
        <Button type="submit" disabled={pending}>
          {pending ? "Preparing…" : "Turn on two-factor authentication"}
        </Button>
      </form>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">{state.message}</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="h-44 w-44 shrink-0 rounded bg-white p-1 ring-1 ring-slate-200" role="img" aria-label="QR code of the authenticator setup" dangerouslySetInnerHTML={{ __html: state.data.qrSvg }} />
        <div className="min-w-0 space-y-2 text-sm">
          <p>Cannot scan? Enter this key in the app (time-based, 6 digits, 30 seconds):</p>
          <code className="block break-all rounded bg-slate-100 px-2 py-1 font-mono" data-testid="totp-secret">
            {state.data.secret}
          </code>
        </div>
      </div>
      <CodeForm action={confirm} label="Code from your app" submit="Confirm and turn on" />
    </div>
  );
}

export function DisableTotp({ action }: { action: CodeAction }) {
  return <CodeForm action={action} label="Current code from your app" submit="Turn off" variant="danger" askPassword />;
}
