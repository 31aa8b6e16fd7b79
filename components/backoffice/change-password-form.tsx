"use client";
// The account page's password change: current password (and code) first, then the new one twice.
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { ActionState } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { useKeptFormAction } from "./use-kept-form-action";

type Action = (previous: ActionState, formData: FormData) => Promise<ActionState>;

export function ChangePasswordForm({ action, totpEnabled, minLength }: { action: Action; totpEnabled: boolean; minLength: number }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="grid gap-4 sm:max-w-md" noValidate>
      <ConfirmIdentityFields idPrefix="change-password" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      <TextField
        id="new-password"
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${minLength} characters.`}
        error={state.fieldErrors?.newPassword}
      />
      <TextField id="confirm-password" name="confirmPassword" label="New password again" type="password" autoComplete="new-password" error={state.fieldErrors?.confirmPassword} />
      {state.status === "success" ? <Alert tone="success">{state.message}</Alert> : null}
      {state.status === "error" ? <Alert tone="error">{state.message}</Alert> : null}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}
