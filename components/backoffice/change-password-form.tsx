"use client";
// The account page's password change: current password (and code) first, then the new one twice.
import { TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { useKeptFormAction } from "./use-kept-form-action";
import { FormMessage, SubmitButton } from "./form-parts";

export function ChangePasswordForm({ action, totpEnabled, minLength }: { action: FormAction; totpEnabled: boolean; minLength: number }) {
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
      <FormMessage state={state} />
      <div>
        <SubmitButton pending={pending} pendingLabel="Changing…">
          Change password
        </SubmitButton>
      </div>
    </form>
  );
}
