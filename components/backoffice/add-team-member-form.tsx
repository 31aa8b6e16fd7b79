"use client";
import { SelectField, TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { useKeptFormAction } from "./use-kept-form-action";
import { FormMessage, SubmitButton } from "./form-parts";

/** `minLength`: the password rule's length (lib/auth/password.ts), so that the hint says what the check does. */
export function AddTeamMemberForm({ action, totpEnabled, minLength }: { action: FormAction; totpEnabled: boolean; minLength: number }) {
  const { state, pending, form } = useKeptFormAction(action);
  return (
    <form {...form} className="grid gap-4 sm:grid-cols-2" noValidate>
      <TextField id="member-name" name="name" label="Name" error={state.fieldErrors?.name} />
      <TextField id="member-email" name="email" label="Email" type="email" error={state.fieldErrors?.email} />
      <TextField id="member-password" name="password" label="First password" type="password" autoComplete="new-password" hint={`At least ${minLength} characters, not a common password. Hand it over securely.`} error={state.fieldErrors?.password} />
      <SelectField
        id="member-role"
        name="role"
        label="Role"
        defaultValue="DEVELOPER"
        error={state.fieldErrors?.role}
        options={[
          { value: "OWNER", label: "Owner: everything, including the team" },
          { value: "DEVELOPER", label: "Developer: keys, settings and payment actions" },
          { value: "VIEWER", label: "Viewer: read only" },
        ]}
      />
      <ConfirmIdentityFields idPrefix="add-member" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      <div className="space-y-3 sm:col-span-2">
        <FormMessage state={state} />
        <SubmitButton pending={pending} pendingLabel="Adding…">
          Add user
        </SubmitButton>
      </div>
    </form>
  );
}
