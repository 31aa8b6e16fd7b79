"use client";
// Settings → Payouts: one currency's limits per payout and per 24 hours, with the owner's password.
import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { ActionState } from "@/lib/backoffice/action-result";
import { ConfirmIdentityFields } from "./confirm-identity-fields";

type SaveAction = (previous: ActionState, formData: FormData) => Promise<ActionState>;

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
      {state.status === "success" ? <Alert tone="success">{state.message}</Alert> : null}
      {state.status === "error" && !state.fieldErrors ? <Alert tone="error">{state.message}</Alert> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save limits"}
      </Button>
    </form>
  );
}
