"use client";
// The forms of mailed links (issue 28): inviting a person (Settings → Team), asking for a reset link
// (from the sign-in page), choosing a new password from that link, and accepting an invitation.
import { useKeptFormAction } from "./use-kept-form-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import type { ActionState } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";

type Action = (previous: ActionState, formData: FormData) => Promise<ActionState>;

function Outcome({ state }: { state: ActionState }) {
  if (state.status === "success") return <Alert tone="success">{state.message}</Alert>;
  if (state.status === "error") return <Alert tone="error">{state.message}</Alert>;
  return null;
}

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
      <Outcome state={state} />
      <ConfirmIdentityFields idPrefix="invite" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      <Button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send invitation"}
      </Button>
    </form>
  );
}

export function ForgotPasswordForm({ action }: { action: Action }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="space-y-4" noValidate>
      <TextField id="forgot-email" name="email" label="Email" type="email" autoComplete="email" error={state.fieldErrors?.email} />
      <Outcome state={state} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Sending…" : "Send a reset link"}
      </Button>
    </form>
  );
}

export function ChoosePasswordForm({ action, token, withName = false }: { action: Action; token: string; withName?: boolean }) {
  const { state, pending, form } = useKeptFormAction(action, { resetOnSuccess: false });
  if (state.status === "success") return <Alert tone="success">{state.message}</Alert>;
  return (
    <form {...form} className="space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {withName ? <TextField id="choose-name" name="name" label="Your name" autoComplete="name" error={state.fieldErrors?.name} /> : null}
      <TextField id="choose-password" name="password" label="New password" type="password" autoComplete="new-password" hint="At least 12 characters." error={state.fieldErrors?.password} />
      <Outcome state={state} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Saving…" : withName ? "Join" : "Set password"}
      </Button>
    </form>
  );
}
