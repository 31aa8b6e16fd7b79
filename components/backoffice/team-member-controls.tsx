"use client";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { ActionState, FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { useKeptFormAction } from "./use-kept-form-action";

type Action = FormAction;
type ResetAction = FormAction<{ temporaryPassword: string }>;

/** A form of one control: the browser's confirm dialog first, then sent as useKeptFormAction sends it. */
function ConfirmFirstForm({ form, question, children }: { form: ReturnType<typeof useKeptFormAction>["form"]; question: string; children: ReactNode }) {
  return (
    <form
      action={form.action}
      className="flex items-center gap-2"
      onSubmit={(event) => {
        if (!window.confirm(question)) event.preventDefault();
        form.onSubmit(event);
      }}
    >
      {children}
    </form>
  );
}

/**
 * Role change, password reset and removal of one team member (owners only; the server checks
 * again), each confirmed with the owner's password. A reset's temporary password is shown here once.
 */
export function TeamMemberControls({
  action,
  resetAction,
  userId,
  email,
  role,
  totpEnabled,
}: {
  action: Action;
  resetAction: ResetAction;
  userId: string;
  email: string;
  role: string;
  totpEnabled: boolean;
}) {
  const { state: roleState, pending: rolePending, form: roleForm } = useKeptFormAction(action);
  const { state: removeState, pending: removePending, form: removeForm } = useKeptFormAction(action);
  const { state: resetState, pending: resetPending, form: resetForm } = useKeptFormAction(resetAction);
  // The step-up fields are compact (no room for their own message): their errors are the message.
  const stepUpError = (state: ActionState<unknown>) => state.fieldErrors?.currentPassword ?? state.fieldErrors?.currentCode;
  const message = stepUpError(removeState) ?? removeState.message ?? stepUpError(resetState) ?? resetState.message ?? stepUpError(roleState) ?? roleState.message;
  const failed = removeState.status === "error" || resetState.status === "error" || roleState.status === "error";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form {...roleForm} className="flex items-center gap-2">
        <input type="hidden" name="change" value="role" />
        <input type="hidden" name="userId" value={userId} />
        <label htmlFor={`role-${userId}`} className="sr-only">
          Role of {email}
        </label>
        <select id={`role-${userId}`} name="role" defaultValue={role} className="rounded-md border-0 bg-white py-1.5 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600">
          <option value="OWNER">Owner</option>
          <option value="DEVELOPER">Developer</option>
          <option value="VIEWER">Viewer</option>
        </select>
        <ConfirmIdentityFields idPrefix={`role-${userId}`} totpEnabled={totpEnabled} fieldErrors={roleState.fieldErrors} compact />
        <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" disabled={rolePending} aria-label={`Save role of ${email}`}>
          Save
        </Button>
      </form>
      <ConfirmFirstForm form={resetForm} question={`Give ${email} a new temporary password? Their current password stops working and they are signed out.`}>
        <input type="hidden" name="userId" value={userId} />
        <ConfirmIdentityFields idPrefix={`reset-${userId}`} totpEnabled={totpEnabled} fieldErrors={resetState.fieldErrors} compact />
        <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" disabled={resetPending} aria-label={`Reset password of ${email}`}>
          Reset password
        </Button>
      </ConfirmFirstForm>
      <ConfirmFirstForm form={removeForm} question={`Remove ${email}? They can no longer sign in.`}>
        <input type="hidden" name="change" value="remove" />
        <input type="hidden" name="userId" value={userId} />
        <ConfirmIdentityFields idPrefix={`remove-${userId}`} totpEnabled={totpEnabled} fieldErrors={removeState.fieldErrors} compact />
        <Button type="submit" variant="ghost" className="px-2 py-1 text-xs text-red-700" disabled={removePending} aria-label={`Remove ${email}`}>
          Remove
        </Button>
      </ConfirmFirstForm>
      {resetState.status === "success" && resetState.data ? (
        <p className="w-full text-xs text-slate-700">
          Temporary password:{" "}
          <code data-testid={`temporary-password-${userId}`} className="select-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm text-slate-900">
            {resetState.data.temporaryPassword}
          </code>
        </p>
      ) : null}
      {message ? (
        <p role={failed ? "alert" : "status"} className={`w-full text-xs ${failed ? "text-red-700" : "text-emerald-700"}`}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
