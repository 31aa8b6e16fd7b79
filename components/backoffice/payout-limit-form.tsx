"use client";
// Settings → Payouts: one currency's limits per payout and per 24 hours, with the owner's password.
import { useActionState } from "react";
import { TextField } from "@/components/ui/field";
import type { FormAction } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";
import { FormMessage, SubmitButton } from "./form-parts";

type SaveAction = FormAction;

export function PayoutLimitForm({ action, totpEnabled }: { action: SaveAction; totpEnabled: boolean }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField id="currency" name="currency" label="Currency" placeholder="DKK" maxLength={3} error={state.fieldErrors?.currency} />
        <TextField id="perPayout" name="perPayout" label="Per payout" placeholder="5000.00" inputMode="decimal" error={state.fieldErrors?.perPayout} />
        <TextField id="perDay" name="perDay" label="Per 24 hours" placeholder="20000.00" inputMode="decimal" error={state.fieldErrors?.perDay} />
      </div>
      <ConfirmIdentityFields idPrefix="payout-limit" totpEnabled={totpEnabled} fieldErrors={state.fieldErrors} />
      <FormMessage state={state} quietOnFieldErrors />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Save limits
      </SubmitButton>
    </form>
  );
}
