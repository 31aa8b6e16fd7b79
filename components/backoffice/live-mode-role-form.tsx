"use client";
// Settings → Team: who may act in live mode (owners only, or owners and developers), with the owner's password.
import { useActionState } from "react";
import type { FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { FormMessage, SubmitButton } from "./form-parts";

type SaveAction = FormAction;

export function LiveModeRoleForm({ action, current, totpEnabled }: { action: SaveAction; current: "OWNER" | "DEVELOPER" | "VIEWER"; totpEnabled: boolean }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-900">Who may act in live mode</legend>
        <p className="text-sm text-slate-600">
          Capture, refund, void and resend in live mode, live API keys and notification URLs, and the settings both modes share (hosted
          integrations, checkout origins). Everyone keeps their role in test mode.
        </p>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="liveModeMinRole" value="DEVELOPER" defaultChecked={current !== "OWNER"} /> Owners and developers
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="liveModeMinRole" value="OWNER" defaultChecked={current === "OWNER"} /> Owners only
        </label>
        {state.fieldErrors?.liveModeMinRole ? <p className="text-sm text-red-700">{state.fieldErrors.liveModeMinRole}</p> : null}
      </fieldset>
      <ConfirmIdentityFields idPrefix="live-mode-role" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      <FormMessage state={state} quietOnFieldErrors />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Save
      </SubmitButton>
    </form>
  );
}
