"use client";
import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import type { ActionState } from "@/lib/backoffice/action-result";

type Action = (previous: ActionState, formData: FormData) => Promise<ActionState>;

/** One of capture / refund / void with an optional partial amount (in major units). */
export function PaymentOperationForm({ action, paymentId, operation, currency, maxLabel, variant = "primary" }: { action: Action; paymentId: string; operation: "capture" | "refund" | "void"; currency: string; maxLabel: string; variant?: "primary" | "secondary" | "danger" }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const title = operation === "capture" ? "Capture" : operation === "refund" ? "Refund" : "Void";
  return (
    <form
      action={formAction}
      className="space-y-2 rounded-md p-3 ring-1 ring-slate-200"
      aria-label={`${title} payment`}
      onSubmit={(event) => {
        if (operation !== "capture" && !window.confirm(`${title} this payment? This cannot be undone.`)) event.preventDefault();
      }}
    >
      <input type="hidden" name="paymentId" value={paymentId} />
      <input type="hidden" name="operation" value={operation} />
      {operation !== "void" ? (
        <TextField id={`${operation}-amount`} name="amount" label={`Amount to ${operation} (${currency})`} hint={`Leave empty for ${maxLabel}.`} inputMode="decimal" placeholder="Full amount" error={state.fieldErrors?.amount} />
      ) : (
        <p className="text-sm text-slate-600">Releases the authorization of {maxLabel}.</p>
      )}
      <Button type="submit" variant={variant} disabled={pending}>
        {pending ? "Sending…" : title}
      </Button>
      {state.status === "success" ? <Alert tone="success">{state.message}</Alert> : null}
      {state.status === "error" && !state.fieldErrors ? <Alert tone="error">{state.message}</Alert> : null}
    </form>
  );
}
