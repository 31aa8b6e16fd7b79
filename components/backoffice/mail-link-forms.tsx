"use client";
// The forms of mailed links (issue 28): inviting a person (Settings → Team), asking for a reset link
// (from the sign-in page), choosing a new password from that link, and accepting an invitation.
import { useKeptFormAction } from "./use-kept-form-action";
import { SelectField, TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import { ConfirmAndSubmit, FormMessage, SubmitButton } from "./form-parts";

type Action = FormAction;

export function InviteTeamMemberForm({ action, totpEnabled }: { action: Action; totpEnabled: boolean }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-4" noValidate aria-label="Send an invitation">
      {/* Not labelled "Email" or "Role": the Add-a-user form below has those fields, and one label per page keeps both findable. */}
      <TextField id="invite-email" name="email" label="Address to invite" type="email" autoComplete="off" error={state.fieldErrors?.email} />
      <SelectField
        id="invite-role"
        name="role"
        label="Invited role"
        options={[
          { value: "VIEWER", label: "Viewer" },
          { value: "DEVELOPER", label: "Developer" },
          { value: "OWNER", label: "Owner" },
        ]}
        error={state.fieldErrors?.role}
      />
      <FormMessage state={state} />
      <ConfirmAndSubmit idPrefix="invite" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} pending={pending} pendingLabel="Sending…">
        Send invitation
      </ConfirmAndSubmit>
    </form>
  );
}

export function ForgotPasswordForm({ action }: { action: Action }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-4" noValidate>
      <TextField id="forgot-email" name="email" label="Email" type="email" autoComplete="email" error={state.fieldErrors?.email} />
      <FormMessage state={state} />
      <SubmitButton pending={pending} pendingLabel="Sending…" className="w-full">
        Send a reset link
      </SubmitButton>
    </form>
  );
}

export function ChoosePasswordForm({ action, token, withName = false }: { action: Action; token: string; withName?: boolean }) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  if (state.status === "success") return <FormMessage state={state} />;
  return (
    <form {...form} className="space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {withName ? <TextField id="choose-name" name="name" label="Your name" autoComplete="name" error={state.fieldErrors?.name} /> : null}
      <TextField id="choose-password" name="password" label="New password" type="password" autoComplete="new-password" hint="At least 12 characters." error={state.fieldErrors?.password} />
      <FormMessage state={state} />
      <SubmitButton pending={pending} pendingLabel="Saving…" className="w-full">
        {withName ? "Join" : "Set password"}
      </SubmitButton>
    </form>
  );
}
