"use client";
import { useState, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import type { Enrolment } from "@/lib/backoffice/action-data";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { useKeptFormAction } from "./use-kept-form-action";
import { ConfirmAndSubmit, SubmitButton } from "./form-parts";

type StartAction = FormAction<Enrolment>;
type CodeAction = FormAction<{ recoveryCodes?: string[] }>;
type CodeFormState = ReturnType<typeof useKeptFormAction<{ recoveryCodes?: string[] }>>;

function CodeForm({ kept, label, submit, variant = "primary", askPassword = false }: { kept: CodeFormState; label: string; submit: string; variant?: "primary" | "danger"; askPassword?: boolean }) {
  const { state, pending, form } = kept;
  if (state.status === "success") return <Alert tone="success">{state.message}</Alert>;
  return (
    <form {...form} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
      {askPassword ? <ConfirmIdentityFields idPrefix={`totp-${variant}`} totpEnabled={false} fieldErrors={state.fieldErrors} /> : null}
      <TextField id={`totp-code-${variant}`} name="code" label={label} inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={state.fieldErrors?.code ?? state.fieldErrors?.currentCode ?? (state.status === "error" && !state.fieldErrors?.currentPassword ? state.message : undefined)} />
      <SubmitButton pending={pending} pendingLabel="Checking…" variant={variant} className="sm:mt-6">
        {submit}
      </SubmitButton>
    </form>
  );
}

/** The ten codes, shown once, until the user says they stored them. */
function RecoveryCodes({ message, codes, onStored }: { message: string; codes: string[]; onStored: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-3">
      <Alert tone="success">{message}</Alert>
      <div className="space-y-3 rounded-md bg-amber-50 p-4 ring-1 ring-amber-200" role="region" aria-label="Recovery codes">
        <p className="text-sm font-semibold text-amber-900">
          Recovery codes: each signs you in once without your authenticator. Store them now (a password manager, or printed and locked away): they are shown only this once.
        </p>
        <ul className="grid grid-cols-2 gap-1 font-mono text-sm text-slate-900" data-testid="recovery-codes">
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              void navigator.clipboard?.writeText(codes.join("\n")).then(() => setCopied(true));
            }}
          >
            {copied ? "Copied" : "Copy the codes"}
          </Button>
          <Button type="button" onClick={onStored}>
            I have stored them
          </Button>
        </div>
      </div>
    </div>
  );
}

/**
 * The second factor of one user: turn it on (then the recovery codes), or off. It owns the confirm
 * form's state, not the enrolment form below it: confirming turns the factor on and the page is
 * rendered again as "on" in the same response, which would unmount the enrolment form and the codes
 * with it before anyone saw them. The codes stay until the user says they stored them.
 * `whenOn`: what is shown while the factor is on (the form to turn it off, or a line saying so).
 */
export function TwoFactorSection({ totpEnabled, start, confirm, whenOn }: { totpEnabled: boolean; start: StartAction; confirm: CodeAction; whenOn: ReactNode }) {
  const confirmation = useKeptFormAction(confirm);
  const [stored, setStored] = useState(false);
  const codes = confirmation.state.status === "success" ? confirmation.state.data?.recoveryCodes : undefined;
  if (codes && !stored) return <RecoveryCodes message={confirmation.state.message ?? "Two-factor authentication is on."} codes={codes} onStored={() => setStored(true)} />;
  if (totpEnabled) return <>{whenOn}</>;
  return <EnableTotp start={start} confirmation={confirmation} />;
}

function EnableTotp({ start, confirmation }: { start: StartAction; confirmation: CodeFormState }) {
  const { state, pending, form } = useKeptFormAction(start);
  if (state.status !== "success" || !state.data) {
    return (
      <form {...form} className="space-y-3" noValidate>
        {state.status === "error" && !state.fieldErrors ? <Alert tone="error">{state.message}</Alert> : null}
        <ConfirmAndSubmit idPrefix="totp-start" totpEnabled={false} fieldErrors={state.fieldErrors} pending={pending} pendingLabel="Preparing…">
          Turn on two-factor authentication
        </ConfirmAndSubmit>
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
      <CodeForm kept={confirmation} label="Code from your app" submit="Confirm and turn on" />
    </div>
  );
}

export function DisableTotp({ action }: { action: CodeAction }) {
  const kept = useKeptFormAction(action);
  return <CodeForm kept={kept} label="Current code from your app" submit="Turn off" variant="danger" askPassword />;
}
